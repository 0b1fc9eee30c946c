import { eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  AppError,
  COMMISSION_ABOVE_AMOUNT,
  commissionWithinAmount,
  formatDateTime,
  formatMoney,
  invoicePaymentActions,
  invoicePaymentResource,
  type FieldChanges,
} from '@app/contracts';
import { contracts, invoicePayments, invoices, type Tx } from '@app/db';
import { refuseFutureDay } from '../../lib/input.js';
import { defineModule, type ResourceModule } from '../../lib/actions/module.js';
import { recordAction } from '../../lib/actions/types.js';
import type { AppContext } from '../../lib/context.js';
import { createCrudService, moneyValue, sortedBy, type Actor, type Join, type Row } from '../../lib/crud/crud-service.js';
import { withUpdateEventLine } from '../../lib/crud/update-event-line.js';
import { invoiceAmounts } from '../../lib/invoicing/money.js';
import { queueStudentMail } from '../../lib/mail/student-mail.js';
import { withdrawMailsOf } from '../../lib/mail/withdraw.js';
import { checkDateInNumberYear, nextNumber } from '../../lib/numbering.js';
import { columnsMatch, contractFound, contractIn, contractStudentName, idFound } from '../../lib/search.js';
import { contractTemplateData } from '../../lib/templates/contract-data.js';
import { createStoredPdf, pdfDownload, recordPdf } from '../../lib/templates/pdf.js';
import { userName } from '../../lib/crud/user-name.js';

const p = invoicePayments;
const i = invoices;

const joinInvoice: Join = (q) => q.innerJoin(i, eq(i.id, p.invoice_id));
const joinInvoiceContract: Join = (q) => joinInvoice(q).innerJoin(contracts, eq(contracts.id, i.contract_id));

/** The invoice's open amount, all its payments counted: the one definition of lib/invoicing/money.ts. */
const { open: invoiceOpen } = invoiceAmounts(i);

/** Payments of the invoices that match (the contract's fields through the invoices' index). */
const byInvoice = (condition: SQL): SQL => inArray(p.invoice_id, sql`(select ${i.id} from ${i} where ${condition})`);

const invoiceNumberMatches = (term: string) => columnsMatch([i.number], term);
/** The payments of the invoices whose number the text finds, as `contractFound` finds a contract's (lib/search.ts). */
const invoiceFound = (term: string): SQL => idFound(p.invoice_id, sql`select ${i.id} from ${i} where ${invoiceNumberMatches(term)}`, term);

const plainFields = [
  'id', 'number', 'invoice_id', 'payment_date', 'paid_by_shopify', 'comments', 'payment_confirmation_timestamp', 'pdf_filename', 'pdf_timestamp',
  'creation_timestamp', 'edit_timestamp',
] as const;

/** What the invoice of a payment is, locked until the transaction ends: payments of one invoice take turns. */
async function lockInvoice(tx: Tx, invoiceId: number) {
  const [locked] = await tx.select({ id: i.id }).from(i).where(eq(i.id, invoiceId)).for('update');
  if (!locked) throw new AppError('BAD_REQUEST', 'Invalid input: invoice_id', { invoice_id: ['Invoice is not known'] });
  const [inv] = await tx
    .select({ number: i.number, is_creditnote: i.is_creditnote, open: sql<string>`(${invoiceOpen})::text` })
    .from(i)
    .where(eq(i.id, invoiceId));
  return inv!;
}

/**
 * A payment belongs to a numbered invoice (decision 021): on a planned invoice or a credit note it is a 409
 * with the reason. A payment beyond what the invoice still owes (`open`, its other payments counted) is a 409
 * naming the open amount, unless the request allows the overpayment.
 */
async function checkPayment(tx: Tx, invoiceId: number, amount: number, alreadyPaidHere: number, allowOverpayment: boolean): Promise<void> {
  const inv = await lockInvoice(tx, invoiceId);
  if (inv.is_creditnote) throw new AppError('CONFLICT', `Invoice ${inv.number ?? invoiceId} is a credit note: a payment belongs to a numbered invoice`);
  if (inv.number === null) throw new AppError('CONFLICT', 'The invoice is planned, not numbered yet: a payment belongs to a numbered invoice');
  if (allowOverpayment) return;
  // In cents: the open amount is NUMERIC text, the amount a JSON number with at most 2 decimals.
  const openCents = Math.round(Number(inv.open) * 100) + Math.round(alreadyPaidHere * 100);
  const amountCents = Math.round(amount * 100);
  if (amountCents > openCents) {
    // An invoice paid in full, or overpaid already, is not "open for € -65,44": said in words staff read at once.
    const standing =
      openCents > 0
        ? `is open for ${formatMoney(openCents / 100)}: a payment of ${formatMoney(amount)} pays ${formatMoney((amountCents - openCents) / 100)} too much`
        : openCents === 0
          ? `is paid in full: a payment of ${formatMoney(amount)} pays it all too much`
          : `is overpaid by ${formatMoney(-openCents / 100)} already: with a payment of ${formatMoney(amount)} it is overpaid by ${formatMoney((amountCents - openCents) / 100)}`;
    const message = `Invoice ${inv.number} ${standing}. If you book it anyway, the overpayment becomes a credit on the contract.`;
    // `errors.allow_overpayment` tells a client how to book it anyway: send the payment again with that field true.
    throw new AppError('CONFLICT', message, { allow_overpayment: [message] });
  }
}

/** The payment's money and date, what its confirmation is about: a change of one makes a stored PDF stale. */
const confirmedFields = ['amount_paid', 'commission', 'payment_date'] as const;

/**
 * An edit of what the confirmation shows (amount, commission, payment date), in the edit's transaction (decisions
 * 036, 046): the payment lets go of its stored PDF, so send_email renders a new one (download_pdf says none exists
 * yet; the old file stays in stored_files, like one replaced by create_pdf); a confirmation still waiting in the
 * outbox is withdrawn; and one already sent no longer counts as sent — it told the student the old values — so
 * "Email Sent" says no until the corrected one goes. Answers the line the edit's event ends with, when a
 * confirmation was withdrawn or un-counted.
 */
const letGoOfConfirmation = (tz: string) => async (tx: Tx, _actor: Actor, id: number, changed: FieldChanges): Promise<string | undefined> => {
  if (!confirmedFields.some((f) => f in changed)) return undefined;
  const [before] = await tx.select({ sent: p.payment_confirmation_timestamp }).from(p).where(eq(p.id, id));
  await tx
    .update(p)
    .set({ pdf_file_id: null, pdf_filename: null, pdf_timestamp: null, pdf_user: null, payment_confirmation_timestamp: null, payment_confirmation_user: null })
    .where(eq(p.id, id));
  const withdrawn = await withdrawMailsOf(tx, invoicePaymentResource.key, id, 'the payment was edited before the mail went: send the confirmation again');
  const lines = [
    ...(before?.sent ? [`The confirmation sent ${formatDateTime(before.sent, tz)} showed the old values: Email Sent cleared until the new one is sent`] : []),
    ...withdrawn.map((m) => `E-mail "${m.subject}" to ${m.recipient} withdrawn: it showed the old values`),
  ];
  return lines.length > 0 ? lines.join('. ') : undefined;
};

export function invoicePaymentModule(ctx: AppContext): ResourceModule {
  /** A payment is booked when the money has come in: a date after today (office time zone) is a typo. */
  const checkPaymentDate = (date: unknown): void => refuseFutureDay(ctx.env.APP_TIMEZONE, 'payment_date', 'Payment date', date);

  const service = createCrudService(ctx, {
    resource: invoicePaymentResource,
    table: p,
    columns: {
      ...Object.fromEntries(plainFields.map((f) => [f, p[f] as AnyPgColumn])),
      // A payment's invoice is numbered: its number as the payment holds it (0030), sorted along its index.
      invoice: sortedBy(sql<string>`coalesce(${p.invoice_number}, '')`, p.invoice_number),
      contract_id: i.contract_id,
      contract: contracts.application_number,
      student_id: contracts.student_id,
      student_name: contractStudentName,
      amount_paid: moneyValue(p.amount_paid),
      commission: moneyValue(p.commission),
      net_amount: moneyValue(p.net_amount),
      amount_shopify: sql<number | null>`${p.amount_shopify}::float8`,
      invoice_open_amount: sql<number>`(${invoiceOpen})::float8`,
      payment_confirmation_user: userName(p.payment_confirmation_user),
      pdf_user: userName(p.pdf_user),
      creation_user: userName(p.creation_user),
      edit_user: userName(p.edit_user),
    },
    joins: joinInvoiceContract,
    countJoins: (q) => q,
    sortJoins: { contract: joinInvoiceContract, student_name: joinInvoiceContract },
    neverNull: ['contract'],
    // The payment's number, its invoice's number, or its contract's application number or student's name
    // (payments carry their contract, 0023): each through its own index.
    search: (term) => or(columnsMatch([p.number], term), invoiceFound(term), contractFound(p.contract_id, term)),
    // In parts, each walked in the list's order when it finds many rows and collected when it finds few: as one
    // condition, a text found in most numbers ("P2025", "a") read every payment.
    searchParts: (term) => ({ walked: [columnsMatch([p.number], term), byInvoice(invoiceNumberMatches(term)), contractIn(p.contract_id, term)] }),
    filters: {
      contract_id: (v) => byInvoice(eq(i.contract_id, Number(v))),
      student_id: (v) => byInvoice(inArray(i.contract_id, sql`(select ${contracts.id} from ${contracts} where ${eq(contracts.student_id, Number(v))})`)),
      invoice_id: (v) => eq(p.invoice_id, Number(v)),
      email_sent: (v) => (v === 'true' ? isNotNull(p.payment_confirmation_timestamp) : isNull(p.payment_confirmation_timestamp)),
      payment_date_after: (v) => sql`${p.payment_date} > ${String(v)}`,
    },
    unique: { invoice_payments_number_unique: { field: 'number', label: 'Payment ID' } },
    eventLinks: (row) => ({ studentId: Number(row.student_id), contractId: Number(row.contract_id) }),
    hooks: {
      beforeCreate: async (tx, values, actor) => {
        const { allow_overpayment, ...rest } = values;
        checkPaymentDate(rest.payment_date);
        await checkPayment(tx, Number(rest.invoice_id), Number(rest.amount_paid), 0, allow_overpayment === true);
        // The number is taken in this transaction: a failure gives it back (DESIGN §11).
        const { number } = await nextNumber(tx, 'invoice_payment', Number(String(rest.payment_date).slice(0, 4)));
        return { ...rest, number, creation_user: actor.user.id };
      },
      beforeUpdate: async (tx, changes, current) => {
        const { allow_overpayment, ...rest } = changes;
        // A stored date is not checked again: only the one being set.
        if (rest.payment_date !== undefined && rest.payment_date !== current.payment_date) {
          checkPaymentDate(rest.payment_date);
          checkDateInNumberYear(current.number, rest.payment_date, { field: 'payment_date', label: 'Payment ID', dateLabel: 'payment date', remedy: 'delete the payment and book it again with its date' });
        }
        // The schema compares the two when both are sent; one alone is compared with the other as stored.
        if (!commissionWithinAmount({ amount_paid: Number(rest.amount_paid ?? current.amount_paid), commission: Number(rest.commission ?? current.commission) })) {
          throw new AppError('BAD_REQUEST', 'Invalid input: commission', { commission: [COMMISSION_ABOVE_AMOUNT] });
        }
        if (rest.amount_paid !== undefined && Number(rest.amount_paid) > Number(current.amount_paid)) {
          await checkPayment(tx, Number(current.invoice_id), Number(rest.amount_paid), Number(current.amount_paid), allow_overpayment === true);
        }
        return rest;
      },
      ...withUpdateEventLine(invoicePaymentResource.title, letGoOfConfirmation(ctx.env.APP_TIMEZONE)),
    },
  });

  /** The data of the payment confirmation templates, shaped like their sample (lib/templates/registry.ts). */
  async function templateData(tx: Tx, id: number) {
    const [r] = await tx
      .select({
        number: p.number,
        date: p.payment_date,
        amount: sql<string>`${p.amount_paid}::text`,
        shopify: p.paid_by_shopify,
        invoice_number: i.number,
        invoice_date: i.invoice_date,
        expiration_date: i.expiration_date,
        description: i.description,
        invoiced: sql<string>`(${invoiceAmounts(i).invoiced})::text`,
        open: sql<string>`(${invoiceOpen})::text`,
        contract_id: i.contract_id,
      })
      .from(p)
      .innerJoin(i, eq(i.id, p.invoice_id))
      .where(eq(p.id, id));
    if (!r) throw new AppError('NOT_FOUND', `Invoice Payment ${id} not found`);
    const total = Number(r.invoiced);
    return {
      ...(await contractTemplateData(tx, r.contract_id)),
      invoice: {
        number: r.invoice_number ?? '',
        date: r.invoice_date,
        due_date: r.expiration_date,
        description: r.description,
        lines: [{ description: r.description, amount: total }],
        total,
        open_amount: Number(r.open),
      },
      payment: { number: r.number, date: r.date, amount: Number(r.amount), reference: r.invoice_number ?? '', method: r.shopify ? 'Shop (card payment)' : 'Bank transfer' },
    };
  }

  /** Renders the confirmation PDF, stores it and points the payment at it; the changed fields for the event. */
  async function createPdf(tx: Tx, actor: Actor, row: Row) {
    const data = await templateData(tx, Number(row.id));
    const filename = `Payment_Confirmation_${String(row.number)}.pdf`;
    const pdf = await createStoredPdf({ db: tx, env: ctx.env }, 'payment_confirmation_pdf', data, filename, actor.user.id);
    const changes = await service.applyChanges(tx, row, { pdf_filename: filename, pdf_file_id: pdf.fileId, pdf_user: actor.user.id, pdf_timestamp: new Date() }, actor);
    delete changes.pdf_file_id;
    delete changes.pdf_user;
    delete changes.pdf_timestamp;
    return { changes, data, fileId: pdf.fileId };
  }

  return defineModule(ctx, service, [
    recordAction(invoicePaymentActions.createPdf, async (tx, actor, { row }) => {
      const { changes } = await createPdf(tx, actor, row);
      return { changes, message: `Payment confirmation ${String(row.number)} created` };
    }),
    recordAction(invoicePaymentActions.downloadPdf, async (tx, _actor, { id }) => pdfDownload(await recordPdf(tx, p.pdf_file_id, p.id, id, 'No PDF has been created for this payment yet'))),
    // The confirmation: the PDF (rendered now when missing) attached, queued in the outbox in this transaction;
    // the outbox sets payment_confirmation_timestamp once the SMTP server accepted it (decision 016).
    recordAction(invoicePaymentActions.sendEmail, async (tx, actor, { id, row }) => {
      let fileId: number | null = (await tx.select({ fileId: p.pdf_file_id }).from(p).where(eq(p.id, id)))[0]?.fileId ?? null;
      let changes = {};
      let data;
      if (fileId === null) {
        const created = await createPdf(tx, actor, row);
        ({ changes, data, fileId } = created);
      } else {
        data = await templateData(tx, id);
      }
      if (!data.student.email) throw new AppError('CONFLICT', `${data.student.name} has no e-mail address`);
      const message = await queueStudentMail(ctx, tx, actor, 'payment_confirmation_email', data, {
        attach: [{ id: fileId }],
        concerns: { resource: 'invoice_payment', id },
        onAccepted: [{ target: 'invoice_payment.payment_confirmation', id }],
      });
      return { changes, message, amount: Number(row.amount_paid) };
    }),
  ]);
}
