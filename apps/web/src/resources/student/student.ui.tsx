import { studentResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { StudentInfo, studentLayout } from './student.extras';
import { studentFields } from './student.fields';
import { studentFilters } from './student.filters';

export const studentUi = defineResourceUi({
  descriptor: studentResource,
 
  fields: studentFields,
  filters: studentFilters,
  detail: { info: (detail) => <StudentInfo detail={detail} />, layout: studentLayout },
});
