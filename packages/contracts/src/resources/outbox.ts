import { z } from 'zod';
import { defineAction } from '../common/actions.js';
import { defineResource } from '../common/resource.js';
import { positiveId, text } from '../common/fields.js';

/** Where a mail stands (DESIGN §7): `sent` only once the SMTP server accepted it. */
export const OUTBOX_STATUSES = ['queued', 'sent', 'failed', 'unknown'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
export const OUTBOX_STATUS_LABELS: Record<OutboxStatus, string> = { queued: 'Queued', sent: 'Sent', failed: 'Failed', unknown: 'Unknown' };
/** The colour each status is shown in, wherever mails are listed (the Outbox, a contract's mails). */
export const OUTBOX_STATUS_COLORS: Record<OutboxStatus, string> = { queued: 'gray', sent: 'green', failed: 'red', unknown: 'orange' };

/** The Outbox's `delivery` filter: the mails waiting to be tried again, or those and the failed ones. */
export const OUTBOX_DELIVERY_FILTERS = ['retrying', 'failed_or_retrying'] as const;
export const OUTBOX_DELIVERY_LABELS: Record<(typeof OUTBOX_DELIVERY_FILTERS)[number], string> = {
  retrying: 'Waiting to retry',
  failed_or_retrying: 'Failed or waiting to retry',
};

export const OutboxSchema = z.object({
  id: z.number().int(),
  recipient: z.string(),
  recipient_name: z.string().nullable(),
  subject: z.string(),
  text_body: z.string(),
  html_body: z.string().nullable(),
  status: z.enum(OUTBOX_STATUSES),
  attempts: z.number().int(),
  last_reply: z.string().nullable(),
  resource: z.string().nullable(),
  record_id: z.number().int().nullable(),
  /** The contract of the record: the contract itself, or the contract of the invoice or payment (decision 045). */
  contract_id: z.number().int().nullable(),
  /**
   * The record as staff know it: an invoice's or payment's number, a contract's application number and student
   * ("A000012 (Łukasz Wiśniewski)"). Null for a mail about no such record, or when the record was deleted. The
   * detail answers it, lists do not.
   */
  record_reference: z.string().nullable().optional(),
  /** The contract (`contract_id`) as staff know it, the same way; the detail only. */
  contract_reference: z.string().nullable().optional(),
  attachment_names: z.string().nullable(),
  created_user: z.number().int().nullable(),
  created_user_name: z.string().nullable(),
  created_timestamp: z.string(),
  sent_timestamp: z.string().nullable(),
  edit_timestamp: z.string(),
});
export type OutboxMail = z.infer<typeof OutboxSchema>;

export const OutboxFilterSchema = z.object({
  status: z.enum(OUTBOX_STATUSES, { error: `status must be one of ${OUTBOX_STATUSES.join(', ')}` }).optional(),
  recipient: text('recipient').trim().min(1).max(200, 'recipient must be at most 200 characters').optional(),
  /** The mails of one record: its resource key and id (`contract`, 12). */
  resource: text('resource').trim().min(1).max(50, 'resource must be a resource key').optional(),
  record_id: positiveId('record_id').optional(),
  /** Every mail about a contract and its invoices and payments. */
  contract_id: positiveId('contract_id').optional(),
  /**
   * Mails that need a look: `retrying` — queued, its last attempt did not go through, waiting for its next try;
   * `failed_or_retrying` — those and the failed ones (Home counts them).
   */
  delivery: z.enum(OUTBOX_DELIVERY_FILTERS, { error: `delivery must be one of ${OUTBOX_DELIVERY_FILTERS.join(', ')}` }).optional(),
});

const NoInput = z.object({}).strict();

/**
 * Sends a failed or unknown mail again, by hand, or a queued one waiting for its next try now (its last attempt did
 * not go through: a refused or lost connection, a 4xx). For `unknown` the server may have accepted the first one:
 * the confirm says so.
 */
const resend = defineAction({
  name: 'resend',
  label: 'Resend',
  scope: 'record',
  input: z.object({}),
  result: 'record',
  changesRecord: true,
  level: 'administrator',
  offeredWhen: (row) => {
    if (row.status === 'failed' || row.status === 'unknown') return null;
    if (row.status === 'queued') return Number(row.attempts) > 0 ? null : 'This e-mail has not been tried yet: it goes as soon as it can';
    return `Only a failed mail, one whose delivery is unknown or one waiting to retry can be sent again (this one is ${String(row.status)})`;
  },
  confirm:
    'Send this e-mail again? A mail waiting to retry is tried now, not at its next try. A mail to a student goes to the student\'s address as it is now. If its status is "unknown", the server may have received the first one: the recipient may get it twice.',
  failureText: 'sending email',
});

export const outboxActions = { resend };

export const outboxResource = defineResource({
  key: 'outbox',
  title: 'E-mail',
  titlePlural: 'Outbox',
  apiPath: 'outbox',
  routes: { overview: '/outbox', detail: '/outbox' },
  schema: OutboxSchema,
  createSchema: NoInput,
  updateSchema: NoInput,
  filterSchema: OutboxFilterSchema,
  sortable: ['created_timestamp', 'recipient', 'subject', 'status', 'attempts', 'sent_timestamp'],
  defaultSort: [{ field: 'created_timestamp', direction: 'desc' }],
  access: { read: 'administrator', write: 'developer' },
  deletable: false,
  readOnly: true,
  actions: [resend],
  referenceField: 'subject',
  columns: [
    { field: 'created_timestamp', title: 'Queued', format: 'datetime', width: 140 },
    { field: 'recipient', title: 'Recipient' },
    { field: 'subject', title: 'Subject' },
    { field: 'status', title: 'Status', width: 90 },
    { field: 'attempts', title: 'Attempts', format: 'number', width: 80 },
    { field: 'last_reply', title: 'Last reply', sortKey: false },
    { field: 'sent_timestamp', title: 'Sent', format: 'datetime', width: 140 },
  ],
});
