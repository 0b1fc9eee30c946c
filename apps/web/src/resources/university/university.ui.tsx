import { universityResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { universityFields } from './university.fields';

export const universityUi = defineResourceUi({ descriptor: universityResource, fields: universityFields });
