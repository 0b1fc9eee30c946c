import { OUTBOX_STATUSES, OUTBOX_STATUS_LABELS, outboxResource } from '@app/contracts';
import { defineFilters } from '../../machinery/fields/types';

/** The Outbox's advanced filters (issue 12): status, recipient, and the record a mail concerns. */
export const outboxFilters = defineFilters(outboxResource, [
  { name: 'status', label: 'Status', kind: 'select', options: OUTBOX_STATUSES.map((s) => ({ value: s, label: OUTBOX_STATUS_LABELS[s] })) },
  { name: 'recipient', label: 'Recipient', kind: 'text' },
  {
    name: 'resource',
    label: 'Concerns',
    kind: 'select',
    options: [
      { value: 'contract', label: 'Contract' },
      { value: 'student', label: 'Student' },
      { value: 'invoice_payment', label: 'Invoice payment' },
      { value: 'emailSettings', label: 'Test mail' },
    ],
  },
  { name: 'record_id', label: 'Record id', kind: 'number' },
]);
