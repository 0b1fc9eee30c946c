import { contractActions, todayIn } from '@app/contracts';
import type { Tx } from '@app/db';
import type { ActionImpl, ActionOutcome } from '../../lib/actions/types.js';
import { recordAction } from '../../lib/actions/types.js';
import type { AppContext } from '../../lib/context.js';
import type { Actor, Row } from '../../lib/crud/crud-service.js';
import { queueMail, type OnAccepted } from '../../lib/mail/outbox.js';
import { contractTemplateData } from '../../lib/templates/contract-data.js';
import { renderMail } from '../../lib/templates/store.js';

/**
 * The contract's mails (issue 12 point 5, issue 18 points 4, 8, 9): each renders its template with data shaped
 * like the template's sample (`lib/templates/registry.ts`) and queues it in the outbox, in the action's
 * transaction, to the student's address and concerning the contract. Nothing leaves the process here: a batch
 * dry run rolls the outbox row back with the rest (decision 010), and the timestamps are set by the outbox
 * only once the SMTP server accepted the mail (`onAccepted`, decision 016).
 *
 * The row given is the locked contract row; `offeredWhen` (whyNoMail) has already refused an inactive contract
 * or a student without an e-mail address, with a reason a person understands.
 */

type MailData = Awaited<ReturnType<typeof contractTemplateData>>;

/** Renders `template` with the data and queues it to the student; the outcome says to whom, for the batch preview. */
async function sendContractMail(
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  row: Row,
  template: string,
  extra: (data: MailData) => Record<string, unknown>,
  onAccepted: (data: MailData) => OnAccepted[] = () => [],
): Promise<ActionOutcome> {
  const data = await contractTemplateData(tx, Number(row.id));
  const mail = await renderMail({ db: tx, env: ctx.env }, template, { ...data, ...extra(data) });
  const id = Number(row.id);
  await queueMail(tx, actor, {
    to: { address: data.student.email, name: data.student.name },
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? null,
    concerns: { resource: 'contract', id },
    onAccepted: onAccepted(data),
  });
  return { message: `E-mail "${mail.subject}" to ${data.student.name} <${data.student.email}> queued` };
}

export function contractMailActions(ctx: AppContext): [string, ActionImpl][] {
  const today = () => todayIn(ctx.env.APP_TIMEZONE);
  // Invoices do not exist yet (issue 13): the amounts are the contract's own (invoiced, paid, to be paid — zero
  // until invoicing computes them) and the invoice lists are empty. The data already has the templates' shape,
  // so the mails fill in once the figures exist.
  const amounts = (row: Row) => ({ invoiced: Number(row.invoiced_amount ?? 0), paid: Number(row.payed_amount ?? 0), open: Number(row.to_be_payed_amount ?? 0) });
  return [
    recordAction(contractActions.sendBankinfoRequest, (tx, actor, { row }) =>
      sendContractMail(
        ctx,
        tx,
        actor,
        row,
        'bankinfo_request_email',
        () => ({}),
        () => [
          { target: 'contract.bankinfo_emailrequest_timestamp', id: Number(row.id) },
          { target: 'student.bankinfo_request', id: Number(row.student_id) },
        ],
      ),
    ),
    recordAction(contractActions.sendPfStatus, (tx, actor, { row }) =>
      sendContractMail(
        ctx,
        tx,
        actor,
        row,
        'pf_status_email',
        () => ({ pf_status: { date: today(), ...amounts(row), invoices: [] } }),
        () => [{ target: 'contract.pf_status_email_timestamp', id: Number(row.id) }],
      ),
    ),
    recordAction(contractActions.sendPaymentInfo, (tx, actor, { row }) =>
      sendContractMail(ctx, tx, actor, row, 'payment_info_email', (data) => ({
        // Until invoices exist the contract stands in for one: its reference is the payment reference.
        invoice: {
          number: data.contract.reference,
          date: today(),
          // The samples' due date is 30 days after the invoice date.
          due_date: new Date(Date.parse(`${today()}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10),
          description: `Contract ${data.contract.reference}`,
          lines: [],
          total: amounts(row).open,
          open_amount: amounts(row).open,
        },
      })),
    ),
    recordAction(contractActions.requestRefundInfo, (tx, actor, { row }, input) =>
      sendContractMail(ctx, tx, actor, row, 'refund_request_email', () => ({ refund: { amount: input.amount, reason: input.reason } })),
    ),
  ];
}
