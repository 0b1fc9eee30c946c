import type { Tx } from '@app/db';
import type { AppContext } from '../context.js';
import type { Actor } from '../crud/crud-service.js';
import { renderMail } from '../templates/store.js';
import { queueMail, type MailAttachment, type MailToQueue } from './outbox.js';

/** The data of a mail to a contract's student: the template data with the student's name and address. */
export interface StudentMailData {
  student: { name: string; email: string | null };
}

/**
 * Renders the mail template with the data and queues it in the outbox to the student, in the action's
 * transaction (decision 016), with stored files (PDFs, byte for byte) attached by reference (decision 065): what
 * the contract, invoice and payment mails share. Answers the line a single send and a batch's preview show.
 */
export async function queueStudentMail<D extends StudentMailData>(
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  template: string,
  data: D,
  mail: Pick<MailToQueue, 'concerns' | 'onAccepted'> & { attach?: MailAttachment[] },
): Promise<string> {
  const rendered = await renderMail({ db: tx, env: ctx.env }, template, data);
  await queueMail(tx, actor, {
    to: { address: data.student.email ?? '', name: data.student.name },
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html ?? null,
    attachments: mail.attach,
    concerns: mail.concerns,
    onAccepted: mail.onAccepted,
  });
  return `E-mail "${rendered.subject}" to ${data.student.name} <${data.student.email ?? ''}> queued`;
}
