import { milestoneResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { milestoneFields } from './milestone.fields';
import { milestoneFilters } from './milestone.filters';

export const milestoneUi = defineResourceUi({
  descriptor: milestoneResource,
 
  fields: milestoneFields,
  filters: milestoneFilters,
});
