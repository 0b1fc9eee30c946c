import { studentFeeResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { studentFeeColumns } from './student-fee.columns';
import { studentFeeFields } from './student-fee.fields';

export const studentFeeUi = defineResourceUi({ descriptor: studentFeeResource, columns: studentFeeColumns, fields: studentFeeFields });
