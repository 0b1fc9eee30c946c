import { scholarshipPaymentResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { scholarshipPaymentCells } from './scholarship-payment.cells';
import { scholarshipPaymentFields } from './scholarship-payment.fields';
import { scholarshipPaymentFilters } from './scholarship-payment.filters';

/** Planned and numbered scholarship payments: one resource, its two views (spec §2). */
export const scholarshipPaymentUi = defineResourceUi({
  descriptor: scholarshipPaymentResource,
  cells: scholarshipPaymentCells,
  fields: scholarshipPaymentFields,
  filters: scholarshipPaymentFilters,
  // As the views' fixed filters on the server: numbered once Create Payment gave it a number.
  viewOf: (row) => (row.number ? 'numbered' : 'planned'),
});
