import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Text } from '@mantine/core';
import { formatMoney, invoiceResource, type Invoice } from '@app/contracts';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import type { Detail } from '../../machinery/detail/use-detail';

/**
 * A new payment from a numbered invoice (`/invoicepayment/new?invoice_id=…`, spec §2): the invoice is read afresh
 * and its contract, student and open amount become the route's presets (amount paid = what is still open), so
 * the form starts from them like from any preset; the contract narrows the invoice list to its own. A preset the
 * route already has is kept.
 */
export function PaymentPresets({ detail }: { detail: Detail }) {
  const [params, setParams] = useSearchParams();
  const invoiceId = detail.mode === 'new' ? params.get('invoice_id') : null;
  const query = useQuery({
    queryKey: queryKeys.detail(invoiceResource.key, invoiceId ?? ''),
    queryFn: ({ signal }) => api.get<Invoice>(`/${invoiceResource.apiPath}/${encodeURIComponent(invoiceId!)}`, { signal }),
    enabled: invoiceId !== null && /^\d+$/.test(invoiceId),
  });
  // Only the invoice as read now: a copy kept from an earlier screen still shows the open amount before the last
  // payment, and a preset is taken once (decision 051).
  const invoice = query.isFetchedAfterMount ? query.data : undefined;
  useEffect(() => {
    if (!invoice || params.has('contract_id')) return;
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set('contract_id', String(invoice.contract_id));
        next.set('student_name', invoice.student_name);
        next.set('invoice_open_amount', String(invoice.to_be_payed_amount));
        if (!next.has('amount_paid') && invoice.to_be_payed_amount > 0) {
          next.set('amount_paid', String(invoice.to_be_payed_amount));
          next.set('net_amount', String(invoice.to_be_payed_amount));
        }
        return next;
      },
      { replace: true },
    );
  }, [invoice, params, setParams]);
  if (invoiceId === null) return null;
  if (query.error) {
    return (
      <Alert color="red" variant="light" role="alert">
        Error loading the invoice: {query.error.message}
      </Alert>
    );
  }
  if (!invoice) return null;
  return (
    <Text size="sm" c="dimmed">
      {`Payment of invoice ${invoice.number ?? ''} (contract ${invoice.contract}, ${invoice.student_name}): ${standingOf(Number(invoice.to_be_payed_amount))}`}
    </Text>
  );
}

/** What the invoice still owes, in words: an overpaid invoice is not "€ -65,44 open". */
function standingOf(open: number): string {
  if (open > 0) return `${formatMoney(open)} open`;
  if (open === 0) return 'paid in full';
  return `overpaid by ${formatMoney(-open)}`;
}
