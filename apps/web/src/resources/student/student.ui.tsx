import { studentResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { studentColumns } from './student.columns';
import { StudentExport, StudentInfo, studentLayout } from './student.extras';
import { studentFields } from './student.fields';
import { studentFilters } from './student.filters';

export const studentUi = defineResourceUi({
  descriptor: studentResource,
  columns: studentColumns,
  fields: studentFields,
  filters: studentFilters,
  overview: { extras: (overview) => <StudentExport overview={overview} /> },
  detail: { info: (detail) => <StudentInfo detail={detail} />, layout: studentLayout },
});
