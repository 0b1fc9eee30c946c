import { and, eq, isNull, sql } from 'drizzle-orm';
import { outbox, type Tx } from '@app/db';

/**
 * Withdraws the mails about a record that is being deleted and that have not started to go (queued, no delivery
 * under way): they become `failed` with the reason, in the deleting transaction. A payment booked on the wrong
 * student and deleted must not still confirm it to that student. A mail already being handed over goes. Answers
 * the withdrawn mails.
 */
export async function withdrawMailsOf(tx: Tx, resource: string, recordId: number, what: string): Promise<{ subject: string; recipient: string }[]> {
  // The caller holds the record's row lock, as every action that queues a mail about it does: none is queued meanwhile.
  return tx
    .update(outbox)
    .set({ status: 'failed', last_reply: `Not sent: ${what} was deleted before the mail went`, edit_timestamp: sql`greatest(now(), ${outbox.edit_timestamp} + interval '1 millisecond')` })
    .where(and(eq(outbox.resource, resource), eq(outbox.record_id, recordId), eq(outbox.status, 'queued'), isNull(outbox.sending_since)))
    .returning({ subject: outbox.subject, recipient: outbox.recipient });
}
