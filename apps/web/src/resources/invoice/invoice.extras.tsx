import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from '@mantine/core';
import { CreditNoteCreateSchema, creditNoteCommand, invoiceResource, whyNoCreditNote } from '@app/contracts';
import { api } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { refreshAfterWrite } from '../../lib/query-keys';
import { ReasonTooltip } from '../../lib/reason-tooltip';
import { useRequestKey } from '../../lib/request-key';
import { InputDialog } from '../../machinery/actions/input-dialog';
import type { Detail } from '../../machinery/detail/use-detail';
import type { FieldDef } from '../../machinery/fields/types';

const CREDIT_NOTE_FIELDS: readonly FieldDef[] = [
  { name: 'amount', label: 'Amount', kind: 'money' },
  { name: 'description', label: 'Description', kind: 'text' },
];

/** Where a new invoice payment for this invoice starts (spec §2: the numbered row's button; issue 14 builds the screen). */
export const newPaymentPath = (invoiceId: number | string) => `/invoicepayment/new?invoice_id=${encodeURIComponent(String(invoiceId))}`;

/**
 * Create Credit Note, or Cancel Registration for a pro-forma fee (spec §4, §7): asks amount and description,
 * creates the credit note with `POST /invoices/` naming this invoice, and opens it.
 */
export function CreditNoteButton({ detail }: { detail: Detail }) {
  const { hasLevel } = useAuth();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const record = detail.record;
  const label = record ? creditNoteCommand(record as { pro_forma?: unknown; document_type_id?: unknown }) : 'Create Credit Note';
  // Sent again after a lost answer, the credit note is made once (decision 050).
  const requestKey = useRequestKey();
  const create = useMutation({
    mutationFn: (input: Record<string, unknown>) =>
      api.post<{ id: number }>(`/${invoiceResource.apiPath}`, { ...input, linked_invoice_id: Number(record!.id) }, { headers: requestKey.headers() }),
    onSuccess: async ({ id }) => {
      requestKey.done();
      setAsking(false);
      // Said in green like every other action that makes a document: the screen changes to the credit note.
      alerts.showSuccess(`${label}: done for Invoice ${String(record!.number)}`);
      await refreshAfterWrite(queryClient, invoiceResource.key);
      void navigate(`/invoice/creditnote/${id}`);
    },
    onError: (error) => alerts.showFailure(error, 'saving new'),
  });
  if (detail.mode !== 'read' || !record || record.is_creditnote || record.number === null || !hasLevel('user')) return null;
  const reason = whyNoCreditNote(record);
  const button = (
    <Button variant="light" onClick={() => setAsking(true)} disabled={reason !== null} data-disabled-reason={reason ?? undefined}>
      {label}
    </Button>
  );
  return (
    <>
      <ReasonTooltip reason={reason}>{button}</ReasonTooltip>
      {asking && (
        <InputDialog
          title={label}
          text={`A credit note on invoice ${String(record.number)}: at most what is not yet credited on it. What was paid beyond the invoice then becomes a credit on the contract.`}
          fields={CREDIT_NOTE_FIELDS}
          schema={CreditNoteCreateSchema.omit({ linked_invoice_id: true, comments: true })}
          submitLabel={label}
          pending={create.isPending}
          onSubmit={(input) => create.mutate(input)}
          onClose={() => setAsking(false)}
        />
      )}
    </>
  );
}

/** The numbered invoice row's button that starts a new payment for it. */
export function NewPaymentButton({ row }: { row: { id: number | string; number: string | null; is_creditnote: boolean } }) {
  const { hasLevel } = useAuth();
  if (row.number === null || row.is_creditnote || !hasLevel('user')) return null;
  return (
    <Button component={Link} to={newPaymentPath(row.id)} variant="subtle" size="compact-xs" aria-label={`New payment for invoice ${row.number}`}>
      New Payment
    </Button>
  );
}
