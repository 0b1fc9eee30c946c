import { Link } from 'react-router';
import { Anchor } from '@mantine/core';
import { type OutboxMail } from '@app/contracts';
import { formatDateTime } from '../../lib/format';
import { InfoList } from '../../machinery/detail/info-list';
import type { Detail } from '../../machinery/detail/use-detail';
import { navigationTargets } from '../../lib/navigation';
import { MAIL_CONCERNS } from './outbox.concerns';

/** The record a mail concerns, as staff call it ("Invoice 123"): a link where its screen exists. */
function concerns(m: OutboxMail) {
  if (m.resource === null || m.record_id === null) return '—';
  const kind = MAIL_CONCERNS[m.resource];
  if (!kind) return `${m.resource} ${m.record_id}`;
  const label = kind.path ? `${kind.label} ${m.record_id}` : kind.label;
  return kind.path ? (
    <Anchor component={Link} to={kind.path(m.record_id)} size="sm">
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
        // The contract of an invoice's or payment's mail (decision 045); a mail about the contract names it above.
        ...(m.contract_id !== null && m.resource !== 'contract'
          ? [
              {
                label: 'Contract',
                value: (
                  <Anchor component={Link} to={navigationTargets.contract(m.contract_id)} size="sm">
                    {`Contract ${m.contract_id}`}
                  </Anchor>
                ),
              },
            ]
          : []),
        { label: 'Attachments', value: m.attachment_names ?? '—' },
      ]}
    />
  );
}
