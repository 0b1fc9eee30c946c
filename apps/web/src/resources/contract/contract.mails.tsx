import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Badge, Table, Text } from '@mantine/core';
import { formatDateTime, OUTBOX_STATUS_COLORS, OUTBOX_STATUS_LABELS, outboxResource, type OutboxMail, type Paged } from '@app/contracts';
import { api } from '../../lib/api-client';
import { detailPath } from '../../lib/navigation';
import { queryKeys } from '../../lib/query-keys';

/** At most this many of a contract's mails are listed, newest first; the Outbox has them all. */
const SHOWN = 50;

/** While a mail waits for the SMTP server, the list asks again this often to show it sent or failed. */
const WHILE_QUEUED_MS = 2000;

/**
 * The contract's mails (issue 12 point 3): the outbox rows concerning it, newest first, with recipient,
 * subject, status and time (sent, else queued). Each subject opens the mail in the Outbox.
 */
export function ContractMails({ contractId, onSettled }: { contractId: number; onSettled?: () => unknown }) {
  const params = { resource: 'contract', record_id: contractId, sort: 'created_timestamp|desc', per_page: SHOWN };
  const query = useQuery({
    queryKey: queryKeys.recordMails('contract', contractId),
    queryFn: ({ signal }) => api.get<Paged<OutboxMail>>(`/${outboxResource.apiPath}`, { query: params, signal }),
    refetchInterval: (q) => (q.state.data?.data.some((m) => m.status === 'queued') ? WHILE_QUEUED_MS : false),
  });
  const rows = query.data?.data ?? [];
  // A mail that was queued and is no longer: the server may have set the contract's timestamps (Bank Request,
  // PF Status Sent), so the screen reads the contract again.
  const queued = useRef<Set<number>>(new Set());
  useEffect(() => {
    if (!query.data) return;
    const now = new Set(query.data.data.filter((m) => m.status === 'queued').map((m) => m.id));
    const settled = [...queued.current].some((id) => !now.has(id));
    queued.current = now;
    if (settled) void onSettled?.();
  }, [query.data, onSettled]);
  return (
    <Table striped fz="sm" verticalSpacing={4} aria-label="E-mails">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Recipient</Table.Th>
          <Table.Th>Subject</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Time</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.length === 0 && (
          <Table.Tr>
            <Table.Td colSpan={4}>
              <Text size="sm" c="dimmed">
                {query.isPending ? 'Loading…' : query.isError ? 'The e-mails could not be loaded' : 'No e-mails for this contract yet'}
              </Text>
            </Table.Td>
          </Table.Tr>
        )}
        {rows.map((m) => (
          <Table.Tr key={m.id}>
            <Table.Td>{m.recipient_name ? `${m.recipient_name} <${m.recipient}>` : m.recipient}</Table.Td>
            <Table.Td>
              <Anchor component={Link} to={detailPath(outboxResource, m.id)} size="sm">
                {m.subject}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Badge color={OUTBOX_STATUS_COLORS[m.status]} variant="light" radius="sm">
                {OUTBOX_STATUS_LABELS[m.status]}
              </Badge>
            </Table.Td>
            <Table.Td>{formatDateTime(m.sent_timestamp ?? m.created_timestamp)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
