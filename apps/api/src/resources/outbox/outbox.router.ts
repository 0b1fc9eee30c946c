import { and, eq, gt, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { outboxActions, outboxResource } from '@app/contracts';
import { contracts, invoicePayments, invoices, outbox, outboxAttachments, storedFiles, users } from '@app/db';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { recordAction } from '../../lib/actions/types.js';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, likePattern } from '../../lib/crud/crud-service.js';
import { contractStudentName } from '../../lib/search.js';
import { emailConfigRouter } from '../../lib/mail/email-config.router.js';
import { requeueMail } from '../../lib/mail/outbox.js';

const o = outbox;
const attachmentNames = sql<string | null>`(select string_agg(${storedFiles.filename}, ', ' order by ${outboxAttachments.position}) from ${outboxAttachments} join ${storedFiles} on ${storedFiles.id} = ${outboxAttachments.file_id} where ${outboxAttachments.outbox_id} = ${o.id})`;

/**
 * The record a mail concerns as staff know it (decision 070), not by its id: an invoice's number (a planned one's
 * reference), a payment's number, a contract's application number and student; none when the record was deleted.
 * Each is one look-up by primary key, for the detail only: a list sorted without an index would make them for
 * every mail.
 */
const contractReference = (id: AnyPgColumn): SQL<string | null> =>
  sql`(select ${contracts.application_number} || ' (' || ${contractStudentName} || ')' from ${contracts} where ${contracts.id} = ${id})`;
const recordReference = sql<string | null>`(case ${o.resource}
  when 'invoice' then (select coalesce(${invoices.number}, ${invoices.document_reference}) from ${invoices} where ${invoices.id} = ${o.record_id})
  when 'invoice_payment' then (select ${invoicePayments.number} from ${invoicePayments} where ${invoicePayments.id} = ${o.record_id})
  when 'contract' then ${contractReference(o.record_id)}
end)`;

/**
 * A queued mail whose last attempt did not go through (a 4xx, a refused or lost connection): it waits for its next
 * try (decision 016's retries). Not while an attempt is under way.
 */
const waitingToRetry = and(eq(o.status, 'queued'), gt(o.attempts, 0), isNull(o.sending_since));

/**
 * The Outbox overview (`/outbox`, Administrator and above): every mail the product queued, read-only, with the
 * Resend action for a failed or unknown one, or a queued one waiting to retry. The Email settings routes
 * (`/config/email`) come with it.
 */
export function outboxModule(ctx: AppContext): ResourceModule {
  const service = createCrudService(ctx, {
    resource: outboxResource,
    table: o,
    columns: {
      id: o.id,
      recipient: o.recipient,
      recipient_name: o.recipient_name,
      subject: o.subject,
      text_body: o.text_body,
      html_body: o.html_body,
      status: o.status,
      attempts: o.attempts,
      last_reply: o.last_reply,
      resource: o.resource,
      record_id: o.record_id,
      contract_id: o.contract_id,
      attachment_names: attachmentNames,
      created_user: o.created_user,
      created_user_name: users.usr_name,
      created_timestamp: o.created_timestamp,
      sent_timestamp: o.sent_timestamp,
      edit_timestamp: o.edit_timestamp,
    },
    detailColumns: { record_reference: recordReference, contract_reference: contractReference(o.contract_id) },
    joins: (q) => q.leftJoin(users, eq(users.id, o.created_user)),
    countJoins: (q) => q,
    search: (term) => or(ilike(o.recipient, likePattern(term)), ilike(o.subject, likePattern(term))),
    filters: {
      status: (v) => eq(o.status, String(v)),
      recipient: (v) => ilike(o.recipient, likePattern(String(v))),
      resource: (v) => eq(o.resource, String(v)),
      record_id: (v) => eq(o.record_id, Number(v)),
      contract_id: (v) => eq(o.contract_id, Number(v)),
      // Home's count of mails that need a look (decision 070): failed, or waiting to be tried again.
      delivery: (v) => (v === 'retrying' ? waitingToRetry : or(eq(o.status, 'failed'), waitingToRetry)),
    },
    // The Resend of a mail about a contract, invoice or payment shows in that contract's history.
    eventLinks: (row) => (row.contract_id === null ? {} : { contractId: row.contract_id as number }),
  });
  return defineModule(
    ctx,
    service,
    [
      recordAction(outboxActions.resend, async (tx, actor, { id, row }) => {
        const { recipient, was } = await requeueMail(tx, actor, id);
        const to = was ? `${recipient}, the student's address now (it went to ${was} before)` : recipient;
        const before = row.status === 'queued' ? `waiting to retry after ${String(row.attempts)} attempt${row.attempts === 1 ? '' : 's'}` : String(row.status);
        return { eventType: 'emailQueued', message: `queued again for ${to} (was ${before})` };
      }),
    ],
    emailConfigRouter(ctx),
  );
}
