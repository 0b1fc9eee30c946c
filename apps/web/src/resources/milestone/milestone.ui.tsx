import { milestoneResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { milestoneColumns } from './milestone.columns';
import { milestoneFields } from './milestone.fields';
import { milestoneFilters } from './milestone.filters';

export const milestoneUi = defineResourceUi({
  descriptor: milestoneResource,
  columns: milestoneColumns,
  fields: milestoneFields,
  filters: milestoneFilters,
});
