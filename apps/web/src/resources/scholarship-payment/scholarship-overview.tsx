import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Alert, Anchor, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { formatMoney, SCHOLARSHIP_OVERVIEW_PATH, scholarshipOverviewLinks, type ScholarshipOverviewRow } from '@app/contracts';
import { api } from '../../lib/api-client';
import { useChoices } from '../../machinery/choices/use-choices';

const STORAGE = 'overview:scholarship_overview';

function loadFilter(): { intake: string | null; type: string | null } {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE) ?? '{}') as { intake?: unknown; type?: unknown };
    return { intake: typeof saved.intake === 'string' ? saved.intake : null, type: typeof saved.type === 'string' ? saved.type : null };
  } catch {
    return { intake: null, type: null };
  }
}

/** A count and sum that open the payments behind them. */
function Figure({ to, count, amount, label }: { to: string; count: number; amount: number; label: string }) {
  if (count === 0) return <Text size="sm" c="dimmed">–</Text>;
  return (
    // The name starts with what is seen (the count and sum: a screen reader heard only the label, and a voice
    // command naming the figure found nothing), followed by what it counts.
    <Anchor component={Link} to={to} size="sm" aria-label={`${count} · ${formatMoney(amount)}: ${label}`}>
      {count} · {formatMoney(amount)}
    </Anchor>
  );
}

/**
 * The Scholarship overview (by scholarship), spec §2 and issue 18 point 10: one row per scholarship, intake and
 * payment type with the count and sum of its planned, numbered and exported payments; filtered by intake and
 * type (remembered for the session); each figure opens the payment view behind it, filtered the same way.
 */
export function ScholarshipOverviewPage() {
  const [filter, setFilter] = useState(loadFilter);
  const intakes = useChoices('contracts_intake');
  const types = useChoices('scholarship_payment_types');
  const change = (next: typeof filter) => {
    setFilter(next);
    sessionStorage.setItem(STORAGE, JSON.stringify(next));
  };
  const query = useQuery({
    queryKey: ['scholarship_overview', filter],
    queryFn: ({ signal }) =>
      api.get<{ data: ScholarshipOverviewRow[] }>(`/${SCHOLARSHIP_OVERVIEW_PATH}`, {
        query: { intake: filter.intake ?? undefined, scholarship_payment_type_id: filter.type ?? undefined },
        signal,
      }),
  });
  const rows = query.data?.data ?? [];
  return (
    <Stack gap="sm" p="md">
      <Title order={1} size="h3">
        Scholarship Overview
      </Title>
      <Group>
        <Select
          label="Intake"
          clearable
          data={intakes.choices.map((c) => ({ value: String(c.id), label: c.name }))}
          value={filter.intake}
          onChange={(v) => change({ ...filter, intake: v })}
        />
        <Select
          label="Type"
          clearable
          data={types.choices.map((c) => ({ value: String(c.id), label: c.name }))}
          value={filter.type}
          onChange={(v) => change({ ...filter, type: v })}
        />
      </Group>
      {query.error && (
        <Alert color="red" title="Scholarship Overview">
          Server error while loading the scholarship overview
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table striped withTableBorder aria-label="Scholarship Overview">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Scholarship</Table.Th>
              <Table.Th>Intake</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Planned</Table.Th>
              <Table.Th>Numbered</Table.Th>
              <Table.Th>Exported</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && !query.isLoading && (
              <Table.Tr>
                <Table.Td colSpan={6}>No Data Available</Table.Td>
              </Table.Tr>
            )}
            {rows.map((r) => {
              const links = scholarshipOverviewLinks(r);
              const name = `${r.scholarship_code} ${r.intake} ${r.scholarship_payment_type}`;
              return (
                <Table.Tr key={`${r.scholarship_id}-${r.intake}-${r.scholarship_payment_type_id}`}>
                  <Table.Td>{r.scholarship_code}</Table.Td>
                  <Table.Td>{r.intake}</Table.Td>
                  <Table.Td>{r.scholarship_payment_type}</Table.Td>
                  <Table.Td>
                    <Figure to={links.planned} count={r.planned_count} amount={r.planned_amount} label={`Planned payments of ${name}`} />
                  </Table.Td>
                  <Table.Td>
                    <Figure to={links.numbered} count={r.numbered_count} amount={r.numbered_amount} label={`Numbered payments of ${name}`} />
                  </Table.Td>
                  <Table.Td>
                    <Figure to={links.exported} count={r.exported_count} amount={r.exported_amount} label={`Exported payments of ${name}`} />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
