import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { contractResource, formatBool, formatDate, type Contract, type Paged, type Student } from '@app/contracts';
import { formatDateTime } from '../../lib/format';
import { api } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { PlusIcon } from '../../lib/icons';
import { detailPath, navigationTargets } from '../../lib/navigation';
import { queryKeys } from '../../lib/query-keys';
import type { Detail } from '../../machinery/detail/use-detail';
import { InfoList } from '../../machinery/detail/info-list';

function stamp(at: string | null, by: string | null): string {
  if (!at) return '';
  return by ? `${formatDateTime(at)} by ${by}` : formatDateTime(at);
}

/** A link to a contract, named by its application number (the contract screen's own query, shared). */
function ContractLink({ id }: { id: number }) {
  const query = useQuery({
    queryKey: queryKeys.detail(contractResource.key, id),
    queryFn: ({ signal }) => api.get<Contract>(`/${contractResource.apiPath}/${id}`, { signal }),
  });
  return (
    <Anchor component={Link} to={navigationTargets.contract(id)} size="sm">
      {query.data?.application_number ?? `Contract ${id}`}
    </Anchor>
  );
}

/** The read-only facts of a student: registration fee, active contract (a link) and the bank info requests. */
export function StudentInfo({ detail }: { detail: Detail }) {
  if (!detail.record) return null;
  const s = detail.record as unknown as Student;
  return (
    <InfoList
      label="Student information"
      items={[
        { label: 'Registration fee paid', value: formatBool(s.registration_fee_payed) },
        { label: 'Active contract', value: s.active_contract_id === null ? null : <ContractLink id={s.active_contract_id} /> },
        { label: 'Bank info requested', value: stamp(s.bankinfo_request_timestamp, s.bankinfo_request_user) },
        { label: 'Bank info updated', value: stamp(s.bankinfo_update_timestamp, s.bankinfo_update_user) },
      ]}
    />
  );
}

/** The student's contracts, each a link, and New contract with the student preset. */
export function StudentContracts({ studentId }: { studentId: number }) {
  const { hasLevel } = useAuth();
  const navigate = useNavigate();
  const params = { student_id: studentId, sort: 'start_date|desc', page: 1, per_page: 50 };
  const query = useQuery({
    queryKey: queryKeys.list(contractResource.key, params),
    queryFn: ({ signal }) => api.get<Paged<Contract>>(`/${contractResource.apiPath}`, { query: params, signal }),
  });
  const rows = query.data?.data ?? [];
  return (
    <Paper withBorder p="md" radius="sm" component="section" aria-label="Contracts of the student">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5">
          Contracts
        </Title>
        {hasLevel(contractResource.access.write) && (
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<PlusIcon size={14} />}
            onClick={() => navigate(`${detailPath(contractResource, 'new')}?student_id=${studentId}`)}
          >
            New contract
          </Button>
        )}
      </Group>
      {query.error && (
        <Text size="sm" c="red" role="alert">
          Error loading the contracts: {query.error.message}
        </Text>
      )}
      {rows.length === 0 && !query.isLoading && !query.error ? (
        <Text size="sm" c="dimmed">
          No contracts yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table fz="sm" verticalSpacing={4} aria-label="Contracts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Application Number</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Code</Table.Th>
                <Table.Th>Program</Table.Th>
                <Table.Th>Start Date</Table.Th>
                <Table.Th>End Date</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <Anchor component={Link} to={navigationTargets.contract(c.id)} size="sm">
                      {c.application_number}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{c.contract_status_name}</Table.Td>
                  <Table.Td>{c.scholarship_code}</Table.Td>
                  <Table.Td>{c.program_shortname}</Table.Td>
                  <Table.Td>{formatDate(c.start_date)}</Table.Td>
                  <Table.Td>{formatDate(c.end_date)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

/** The student form with the student's contracts below it (once the student exists). */
export function studentLayout(form: ReactNode, detail: Detail) {
  if (detail.mode === 'new' || !detail.record) return form;
  return (
    <Stack gap="sm">
      {form}
      <StudentContracts studentId={Number(detail.record.id)} />
    </Stack>
  );
}
