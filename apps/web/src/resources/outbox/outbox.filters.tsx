import { OUTBOX_DELIVERY_FILTERS, OUTBOX_DELIVERY_LABELS, OUTBOX_STATUSES, OUTBOX_STATUS_LABELS, outboxResource } from '@app/contracts';
import { defineFilters } from '../../machinery/fields/types';
import { MAIL_CONCERNS } from './outbox.concerns';

/**
 * The Outbox's advanced filters (issue 12): status, the mails that need a look (failed, or queued and waiting to
 * retry: Home links here), recipient, the contract (its own mails and its documents'), and the record a mail concerns.
 */
export const outboxFilters = defineFilters(outboxResource, [
  { name: 'status', label: 'Status', kind: 'select', options: OUTBOX_STATUSES.map((s) => ({ value: s, label: OUTBOX_STATUS_LABELS[s] })) },
  { name: 'delivery', label: 'Delivery', kind: 'select', options: OUTBOX_DELIVERY_FILTERS.map((d) => ({ value: d, label: OUTBOX_DELIVERY_LABELS[d] })) },
  { name: 'recipient', label: 'Recipient', kind: 'text' },
  { name: 'contract_id', label: 'Contract', kind: 'select', choices: 'contracts' },
  {
    name: 'resource',
    label: 'Concerns',
    kind: 'select',
    options: Object.entries(MAIL_CONCERNS).map(([value, { label }]) => ({ value, label })),
  },
  { name: 'record_id', label: 'Record id', kind: 'number' },
]);
