import { OUTBOX_STATUSES, OUTBOX_STATUS_LABELS, outboxResource } from '@app/contracts';
import { defineFields } from '../../machinery/fields/types';

const statusOptions = OUTBOX_STATUSES.map((s) => ({ value: s, label: OUTBOX_STATUS_LABELS[s] }));

/** A mail as it was queued and where its delivery stands: all read-only (the outbox is written by the system). */
export const outboxFields = defineFields(outboxResource, [
  { name: 'recipient', label: 'Recipient', kind: 'email', readOnly: true },
  { name: 'recipient_name', label: 'Recipient name', kind: 'text', readOnly: true },
  { name: 'subject', label: 'Subject', kind: 'text', readOnly: true, span: 2 },
  { name: 'status', label: 'Status', kind: 'select', options: statusOptions, readOnly: true },
  { name: 'attempts', label: 'Attempts', kind: 'number', readOnly: true },
  { name: 'last_reply', label: 'Last SMTP reply', kind: 'textarea', readOnly: true, span: 2 },
  { name: 'text_body', label: 'Text', kind: 'textarea', readOnly: true, span: 2 },
]);
