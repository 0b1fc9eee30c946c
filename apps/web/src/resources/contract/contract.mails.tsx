import { useEffect, useEffectEvent, useRef } from 'react';
import { Link } from 'react-router';
import { useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { Anchor, Badge, Table, Text } from '@mantine/core';
import {
  actionsOf,
  contractResource,
  OUTBOX_STATUS_COLORS,
  OUTBOX_STATUS_LABELS,
  outboxResource,
  type OutboxMail,
  type Paged,
} from '@app/contracts';
import { formatDateTime } from '../../lib/format';
import { api } from '../../lib/api-client';
import { detailPath } from '../../lib/navigation';
import { queryKeys } from '../../lib/query-keys';
import { recordActionKey, type RecordActionCall } from '../../machinery/actions/use-record-action';

/** At most this many of a contract's mails are listed, newest first; the Outbox has them all. */
const SHOWN = 50;

/** While a mail waits for the SMTP server, the list asks again this often to show it sent or failed. */
export const WHILE_QUEUED_MS = 2000;

/** A mail action is followed this many rounds at most (about two minutes); a longer wait shows in the E-mails tab. */
const FOLLOW_ROUNDS = 60;

type Mails = Paged<OutboxMail>;

/**
 * The one query of a contract's mails — about the contract and about its invoices and payments (decision 045): the
 * E-mails tab lists it, and a mail action follows it.
 */
function mailsQuery(contractId: number) {
  const params = { contract_id: contractId, sort: 'created_timestamp|desc', per_page: SHOWN };
  return {
    queryKey: queryKeys.recordMails('contract', contractId),
    queryFn: ({ signal }: { signal: AbortSignal }) => api.get<Mails>(`/${outboxResource.apiPath}`, { query: params, signal }),
  };
}

const waiting = (mails: Mails | undefined) => mails?.data.some((m) => m.status === 'queued') ?? false;

/**
 * The contract's mail actions (Send bank info request, Send PF status …): they answer a message, and the contract
 * fields they set (Bank Request, PF Status Sent) change only once the SMTP server accepted the mail (decision 007:
 * they carry no `changesRecord`).
 */
const MAIL_ACTIONS = new Set(actionsOf(contractResource).filter((a) => a.scope === 'record' && a.result === 'message' && !a.changesRecord).map((a) => a.name));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The contract read again: what `detail.refresh` gives (a query result). */
type Reread = () => Promise<{ data?: Readonly<Record<string, unknown>> | undefined }>;

/**
 * After a mail action on the contract, follows its mails until none waits for the SMTP server any more, then
 * reads the contract again: the screen shows "Bank info requested" once it was, whether or not the E-mails tab is
 * open. Each mail action done starts the following anew. A role that may not read the outbox (a User sends mails,
 * only Administrators read them) follows the contract itself instead: it is read again every few seconds until
 * its timestamps move, for as long as a mail takes to go out at most.
 */
export function useFollowMails(contractId: number, reread: Reread, canReadMails: boolean) {
  const queryClient = useQueryClient();
  const done = useMutationState({
    filters: {
      mutationKey: recordActionKey(contractResource.key),
      status: 'success',
      predicate: (m) => MAIL_ACTIONS.has(String(m.options.mutationKey?.[2])) && String((m.state.variables as RecordActionCall | undefined)?.id) === String(contractId),
    },
    select: (m) => m.state.submittedAt,
  });
  const last = done.length > 0 ? Math.max(...done) : 0;
  // The last mail action followed: a remount (another tab, back to the screen) does not follow it twice.
  const followed = useRef(last);
  // The screen's latest way to read the contract, without restarting the following when it changes.
  const readAgain = useEffectEvent(() => reread());

  useEffect(() => {
    if (last <= followed.current) return;
    followed.current = last;
    let cancelled = false;
    const follow = async () => {
      if (!canReadMails) {
        let before: number | undefined;
        for (let round = 0; round < FOLLOW_ROUNDS; round++) {
          const { data } = await readAgain();
          if (cancelled || !data) return;
          const now = latestOf(data);
          if (before !== undefined && now > before) return;
          before ??= now;
          await sleep(WHILE_QUEUED_MS);
          if (cancelled) return;
        }
        return;
      }
      for (let round = 0; round < FOLLOW_ROUNDS; round++) {
        // Asked afresh, after the action was done: a list read before it would not know the new mail.
        const mails = await queryClient.fetchQuery({ ...mailsQuery(contractId), staleTime: 0 });
        if (cancelled) return;
        if (!waiting(mails)) break;
        await sleep(WHILE_QUEUED_MS);
        if (cancelled) return;
      }
      await readAgain();
    };
    // A list or record that could not be read: the E-mails tab says so when opened; the contract stays as shown.
    follow().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [last, contractId, queryClient, canReadMails]);
}

/** When the contract, as shown, was last changed by anything a mail sets (its own edit, the mail timestamps). */
function latestOf(record: Readonly<Record<string, unknown>>): number {
  const times = ['edit_timestamp', 'bankinfo_emailrequest_timestamp', 'pf_status_email_timestamp']
    .map((f) => record[f])
    .filter((v): v is string => typeof v === 'string')
    .map((v) => Date.parse(v));
  return times.length > 0 ? Math.max(...times) : 0;
}

/**
 * The contract's mails (issue 12 point 3): the outbox rows concerning it, newest first, with recipient,
 * subject, status and time (sent, else queued). Each subject opens the mail in the Outbox. A mail sent after the
 * contract shown was read (sent while the tab was closed, or the screen was opened before) may have set its
 * timestamps: the contract is read again (`onSettled`), once for that mail.
 */
export function ContractMails({ contractId, record, onSettled }: { contractId: number; record: Readonly<Record<string, unknown>>; onSettled?: () => unknown }) {
  const query = useQuery({
    ...mailsQuery(contractId),
    refetchInterval: (q) => (waiting(q.state.data) ? WHILE_QUEUED_MS : false),
  });
  const rows = query.data?.data ?? [];
  // A mail that was queued and is no longer: the server may have set the contract's timestamps (Bank Request,
  // PF Status Sent), so the screen reads the contract again.
  const queued = useRef<Set<number>>(new Set());
  /** The newest sent mail the contract was read again for. */
  const readFor = useRef<number | null>(null);
  const shownAt = latestOf(record);
  useEffect(() => {
    if (!query.data) return;
    const now = new Set(query.data.data.filter((m) => m.status === 'queued').map((m) => m.id));
    const settled = [...queued.current].some((id) => !now.has(id));
    queued.current = now;
    const newest = query.data.data.find((m) => m.status === 'sent' && m.sent_timestamp);
    const newer = newest !== undefined && Date.parse(newest.sent_timestamp!) > shownAt && readFor.current !== newest.id;
    if (newer) readFor.current = newest.id;
    if (settled || newer) void onSettled?.();
  }, [query.data, onSettled, shownAt]);
  return (
    <Table.ScrollContainer minWidth={560}>
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
    </Table.ScrollContainer>
  );
}
