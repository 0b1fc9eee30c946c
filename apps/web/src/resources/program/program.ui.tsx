import { programResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { programColumns } from './program.columns';
import { programFields } from './program.fields';

export const programUi = defineResourceUi({ descriptor: programResource, columns: programColumns, fields: programFields });
