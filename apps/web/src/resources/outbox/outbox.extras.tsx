import { Link } from 'react-router';
import { Anchor } from '@mantine/core';
import { type OutboxMail } from '@app/contracts';
import { formatDateTime } from '../../lib/format';
import { InfoList } from '../../machinery/detail/info-list';
import type { Detail } from '../../machinery/detail/use-detail';
import { navigationTargets } from '../../lib/navigation';
import { MAIL_CONCERNS } from './outbox.concerns';

/**
 * The record a mail concerns, as staff know it ("Invoice 2026-00012", "Contract A000012 (Łukasz Wiśniewski)", the
 * API's `record_reference`): a link where its screen exists. A record that is gone is named by its id, unlinked.
 */
function concerns(m: OutboxMail) {
  if (m.resource === null || m.record_id === null) return '—';
  const kind = MAIL_CONCERNS[m.resource];
  if (!kind) return `${m.resource} ${m.record_id}`;
  if (!kind.path) return kind.label;
  // The detail answers the reference (null when the record is gone); never asked of a list row.
  if (!m.record_reference) return `${kind.label} ${m.record_id} (deleted)`;
  return (
    <Anchor component={Link} to={kind.path(m.record_id)} size="sm">
      {`${kind.label} ${m.record_reference}`}
    </Anchor>
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
                    {m.contract_reference ?? `Contract ${m.contract_id}`}
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
