import { programResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { programFields } from './program.fields';

export const programUi = defineResourceUi({ descriptor: programResource, fields: programFields });
