import { AppError, contractActions, formatMoney, todayIn } from '@app/contracts';
import type { Tx } from '@app/db';
import type { ActionImpl, ActionOutcome } from '../../lib/actions/types.js';
import { recordAction } from '../../lib/actions/types.js';
import type { AppContext } from '../../lib/context.js';
import type { Actor, Row } from '../../lib/crud/crud-service.js';
import { statusLines, type StatusLine } from '../../lib/invoicing/status.js';
import type { OnAccepted } from '../../lib/mail/outbox.js';
import { queueStudentMail } from '../../lib/mail/student-mail.js';
import { contractTemplateData } from '../../lib/templates/contract-data.js';

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
  extra: (data: MailData) => Record<string, unknown> | Promise<Record<string, unknown>>,
  onAccepted: (data: MailData) => OnAccepted[] = () => [],
): Promise<ActionOutcome> {
  const data = await contractTemplateData(tx, Number(row.id));
  const id = Number(row.id);
  const message = await queueStudentMail(ctx, tx, actor, template, { ...data, ...(await extra(data)) }, { concerns: { resource: 'contract', id }, onAccepted: onAccepted(data) });
  return { message };
}

export function contractMailActions(ctx: AppContext): [string, ActionImpl][] {
  const today = () => todayIn(ctx.env.APP_TIMEZONE);
  const cents = (lines: StatusLine[], field: 'amount' | 'credited' | 'paid' | 'open') => lines.reduce((sum, l) => sum + Math.round(l[field] * 100), 0) / 100;
  /** The participation fee's status today (issue 14 point 5): its invoices with what is open, from lib/invoicing/status.ts. */
  const pfStatus = async (tx: Tx, contractId: number) => {
    const lines = await statusLines(tx, [contractId], today(), [5]);
    return {
      date: today(),
      invoiced: cents(lines, 'amount') - cents(lines, 'credited'),
      paid: cents(lines, 'paid'),
      open: cents(lines, 'open'),
      invoices: lines.map((l) => ({ number: l.number, date: l.invoice_date, amount: l.amount, open: l.open })),
    };
  };
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
    // Nothing to report without a participation fee: "Invoiced € 0,00" would only puzzle the student (decision 039).
    recordAction(contractActions.sendPfStatus, async (tx, actor, { row }) => {
      const status = await pfStatus(tx, Number(row.id));
      if (status.invoices.length === 0 || (status.invoiced <= 0 && status.paid === 0)) {
        throw new AppError('CONFLICT', `No participation fee is invoiced for contract ${String(row.application_number)}`);
      }
      return sendContractMail(
        ctx,
        tx,
        actor,
        row,
        'pf_status_email',
        () => ({ pf_status: status }),
        () => [{ target: 'contract.pf_status_email_timestamp', id: Number(row.id) }],
      );
    }),
    // What is open and how to pay: the open invoices (earliest due first) each with what is open and its due date
    // — or "overdue since" it — the reference being their numbers, less the contract's credit (an invoice paid and
    // then credited, decision 036): the student is never asked for money already paid.
    recordAction(contractActions.sendPaymentInfo, async (tx, actor, { row }) => {
      const day = today();
      const lines = await statusLines(tx, [Number(row.id)], day);
      const open = lines.filter((l) => l.open > 0);
      const credit = cents(lines.filter((l) => l.open < 0), 'open');
      const total = Math.round((cents(open, 'open') + credit) * 100) / 100;
      if (open.length === 0 || total <= 0) {
        const covered = open.length > 0 ? `: its credit of ${formatMoney(-credit)} covers what is open` : '';
        throw new AppError('CONFLICT', `Contract ${String(row.application_number)} has nothing open to pay${covered}`);
      }
      open.sort((x, y) => (x.due_date ?? '9999').localeCompare(y.due_date ?? '9999'));
      const first = open[0]!;
      return sendContractMail(ctx, tx, actor, row, 'payment_info_email', () => ({
        invoice: {
          number: open.map((l) => l.number).join(', '),
          date: first.invoice_date,
          due_date: first.due_date,
          description: first.description,
          lines: [
            ...open.map((l) => ({ description: `${l.number}: ${l.description}`, amount: l.open })),
            ...(credit < 0 ? [{ description: 'Credit on the contract (paid beyond what was invoiced)', amount: credit }] : []),
          ],
          total,
          open_amount: total,
        },
        payment_info: {
          date: day,
          invoices: open.map((l) => ({ number: l.number, description: l.description, date: l.invoice_date, due_date: l.due_date ?? '', open: l.open, overdue: l.expired })),
          credit: -credit,
          total,
        },
      }));
    }),
    recordAction(contractActions.requestRefundInfo, (tx, actor, { row }, input) =>
      sendContractMail(ctx, tx, actor, row, 'refund_request_email', () => ({
        // The credit, in cents from the row's open amount (negative), unless the office gave an amount.
        refund: { amount: input.amount ?? -Math.round(Number(row.to_be_payed_amount) * 100) / 100, reason: input.reason },
      })),
    ),
  ];
}
