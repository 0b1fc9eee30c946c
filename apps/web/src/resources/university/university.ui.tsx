import { universityResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { universityColumns } from './university.columns';
import { universityFields } from './university.fields';

export const universityUi = defineResourceUi({ descriptor: universityResource, columns: universityColumns, fields: universityFields });
