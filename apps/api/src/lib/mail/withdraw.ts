import { and, eq, isNull, sql } from 'drizzle-orm';
import { outbox, type Tx } from '@app/db';

/**
 * Withdraws the mails about a record that have not started to go (queued, no delivery under way) when what they
 * say no longer holds: the record is being deleted (a payment booked on the wrong student must not still confirm it
 * to that student, decision 043), or what a confirmation shows was edited (decision 046). They become `failed`
 * with "Not sent: {why}", in the caller's transaction. A mail already being handed over goes. Answers the withdrawn
 * mails.
 */
export async function withdrawMailsOf(tx: Tx, resource: string, recordId: number, why: string): Promise<{ subject: string; recipient: string }[]> {
  // The caller holds the record's row lock, as every action that queues a mail about it does: none is queued meanwhile.
  return tx
    .update(outbox)
    .set({ status: 'failed', last_reply: `Not sent: ${why}`, edit_timestamp: sql`greatest(now(), ${outbox.edit_timestamp} + interval '1 millisecond')` })
    .where(and(eq(outbox.resource, resource), eq(outbox.record_id, recordId), eq(outbox.status, 'queued'), isNull(outbox.sending_since)))
    .returning({ subject: outbox.subject, recipient: outbox.recipient });
}
