import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Badge, Card, Group, Loader, SimpleGrid, Text, Title } from '@mantine/core';
import {
  formatDate,
  invoicePaymentResource,
  invoiceResource,
  outboxResource,
  scholarshipPaymentResource,
  viewsOf,
  type AnyResource,
  type Paged,
} from '@app/contracts';
import { officeToday } from '../lib/format';
import { api } from '../lib/api-client';
import { useAuth } from '../lib/auth';
import { queryKeys } from '../lib/query-keys';

/** One list of work waiting: an overview (its view) with a filter, counted for the home screen. */
interface Worklist {
  label: string;
  /** What the count means, shown under the label. */
  hint: string;
  resource: AnyResource;
  view?: string;
  filter: Record<string, string>;
  /**
   * Counted exactly (`count=exact`): the list's index finds its rows at once (7–26 ms on the bench's 1M invoices
   * and 350k planned payouts), where the planner's estimate was far off — 15,040 planned invoices due for 14.
   * The others stay estimated where an exact count reads the whole view (open invoices: 7 s), and say "about".
   */
  exact?: true;
}

/** The day after the office's today: "planned before" it is "planned for today or earlier". */
function tomorrow(): string {
  const next = new Date(`${officeToday()}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

function worklists(): Worklist[] {
  const dueBy = tomorrow();
  const today = formatDate(officeToday());
  return [
    { label: 'Planned invoices due', hint: `planned for ${today} or earlier, not yet numbered`, resource: invoiceResource, view: 'planned', filter: { planned_before: dueBy }, exact: true },
    { label: 'Invoices not e-mailed', hint: 'numbered invoices whose e-mail has not gone', resource: invoiceResource, view: 'numbered', filter: { email_sent: 'false' } },
    { label: 'Open invoices', hint: 'numbered invoices not paid in full', resource: invoiceResource, view: 'numbered', filter: { open: 'true' } },
    { label: 'Payments not confirmed', hint: 'invoice payments whose confirmation has not gone', resource: invoicePaymentResource, filter: { email_sent: 'false' } },
    { label: 'Scholarship payments to schedule', hint: `planned for ${today} or earlier`, resource: scholarshipPaymentResource, view: 'planned', filter: { planned_before: dueBy }, exact: true },
    { label: 'Scholarship payments ready for export', hint: 'scheduled, allowed and not yet exported to the bank', resource: scholarshipPaymentResource, view: 'numbered', filter: { ready_for_export: 'true' } },
    {
      label: 'E-mails failed or waiting to retry',
      hint: 'mails the server refused, and mails waiting for another try after a failed one (Resend sends them now)',
      resource: outboxResource,
      filter: { delivery: 'failed_or_retrying' },
    },
  ];
}

function Count({ list }: { list: Worklist }) {
  const view = viewsOf(list.resource).find((v) => v.key === list.view) ?? viewsOf(list.resource)[0]!;
  // The overview's own list query with one row: its total is the count, and a save that changes it reloads it.
  const params = { ...view.fixedFilter, ...list.filter, per_page: 1, ...(list.exact ? { count: 'exact' } : {}) };
  const query = useQuery({
    queryKey: queryKeys.list(list.resource.key, params),
    queryFn: ({ signal }) => api.get<Paged<unknown>>(`/${list.resource.apiPath}`, { query: params, signal }),
  });
  const to = `${view.routes.overview}?${new URLSearchParams(list.filter).toString()}`;
  const pagination = query.data?.links.pagination;
  const count = pagination ? `${pagination.estimated ? 'about ' : ''}${pagination.total.toLocaleString('de-DE')}` : undefined;
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <div>
        <Anchor component={Link} to={to} size="sm">
          {list.label}
        </Anchor>
        <Text size="xs" c="dimmed">
          {list.hint}
        </Text>
      </div>
      {query.isLoading && <Loader size="xs" aria-label={`Counting ${list.label.toLowerCase()}`} />}
      {/* A count that cannot be had is not an alarm on the home screen: the overview says why when opened. */}
      {query.error && (
        <Text size="xs" c="dimmed" title={query.error.message}>
          not counted
        </Text>
      )}
      {count !== undefined && (
        <Badge variant={pagination!.total > 0 ? 'filled' : 'default'} aria-label={`${list.label}: ${count}`}>
          {count}
        </Badge>
      )}
    </Group>
  );
}

/**
 * What waits for staff (decision 048): the work lists of a day — invoices to number and send, payments to
 * confirm, payouts to schedule and export, mails that failed or wait to retry (decision 070) — each counted and
 * linked to its overview with the filter set. Only the lists the user's role may read.
 */
export function NeedsAttention() {
  const { hasLevel } = useAuth();
  const lists = worklists().filter((l) => hasLevel(l.resource.access.read));
  return (
    <Card withBorder padding="md" radius="sm" component="section" aria-labelledby="needs-attention">
      <Title order={2} size="sm" fw={600} mb="xs" id="needs-attention">
        Needs attention
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xs" verticalSpacing="xs">
        {lists.map((l) => (
          <Count key={l.label} list={l} />
        ))}
      </SimpleGrid>
    </Card>
  );
}
