import { studentFeeResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { studentFeeFields } from './student-fee.fields';

export const studentFeeUi = defineResourceUi({ descriptor: studentFeeResource, fields: studentFeeFields });
