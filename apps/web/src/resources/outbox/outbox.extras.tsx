import { Link } from 'react-router';
import { Anchor } from '@mantine/core';
import { formatDateTime, invoicePaymentResource, type OutboxMail } from '@app/contracts';
import { detailPath, navigationTargets } from '../../lib/navigation';
import { InfoList } from '../../machinery/detail/info-list';
import type { Detail } from '../../machinery/detail/use-detail';

/** The record a mail concerns: a link where its screen exists. */
function concerns(m: OutboxMail) {
  if (m.resource === null || m.record_id === null) return '—';
  const targets: Record<string, (id: number) => string> = {
    contract: navigationTargets.contract,
    student: navigationTargets.student,
    invoice_payment: (id) => detailPath(invoicePaymentResource, id),
  };
  const to = targets[m.resource]?.(m.record_id) ?? null;
  const label = m.resource === 'emailSettings' ? 'Test mail' : `${m.resource} ${m.record_id}`;
  return to ? (
    <Anchor component={Link} to={to} size="sm">
      {label}
    </Anchor>
  ) : (
    label
  );
}

/** When the mail was queued and sent, who asked, what it concerns and carries. */
export function OutboxInfo({ detail }: { detail: Detail }) {
  if (!detail.record) return null;
  const m = detail.record as unknown as OutboxMail;
  return (
    <InfoList
      label="E-mail information"
      items={[
        { label: 'Queued', value: formatDateTime(m.created_timestamp) },
        { label: 'Sent', value: formatDateTime(m.sent_timestamp) },
        { label: 'Asked by', value: m.created_user_name ?? '—' },
        { label: 'Concerns', value: concerns(m) },
        { label: 'Attachments', value: m.attachment_names ?? '—' },
      ]}
    />
  );
}
