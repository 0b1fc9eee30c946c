import { invoicePaymentResource, invoiceResource, viewsOf } from '@app/contracts';
import { detailPath, navigationTargets } from '../../lib/navigation';

/** The numbered invoice view's detail: the invoices mails are sent for (invoice, reminder). */
const numberedInvoices = viewsOf(invoiceResource).find((v) => v.key === 'numbered') ?? invoiceResource;

/**
 * What a mail of the Outbox can concern (its `resource`): how staff call it, and the screen of the record where
 * one exists. The Concerns filter offers these, and a mail's detail links to its record.
 */
export const MAIL_CONCERNS: Record<string, { label: string; path?: (id: number) => string }> = {
  contract: { label: 'Contract', path: navigationTargets.contract },
  invoice: { label: 'Invoice', path: (id) => detailPath(numberedInvoices, id) },
  invoice_payment: { label: 'Invoice payment', path: (id) => detailPath(invoicePaymentResource, id) },
  emailSettings: { label: 'Test mail' },
};
