import { invoicePaymentResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { invoicePaymentCells } from './invoice-payment.cells';
import { derivePaymentValues, invoicePaymentFields } from './invoice-payment.fields';
import { invoicePaymentFilters } from './invoice-payment.filters';
import { PaymentPresets } from './invoice-payment.presets';

/**
 * Invoice payments (spec §2): the overview with Export Selection and batch Send Payment Confirmation, the
 * detail with create PDF, download PDF and send e-mail. A payment beyond what the invoice still owes is asked
 * again in a confirm dialog (allow_overpayment).
 */
export const invoicePaymentUi = defineResourceUi({
  descriptor: invoicePaymentResource,
  cells: invoicePaymentCells,
  fields: invoicePaymentFields,
  filters: invoicePaymentFilters,
  detail: {
    info: (detail) => <PaymentPresets detail={detail} />,
    derive: derivePaymentValues,
    confirmFlag: 'allow_overpayment',
  },
});
