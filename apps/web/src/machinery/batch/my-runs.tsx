import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Table, Text, VisuallyHidden } from '@mantine/core';
import { isRunOver, MY_BATCH_RUNS_LISTED, type BatchRunSummary } from '@app/contracts';
import { formatDateTime } from '../../lib/format';
import { api } from '../../lib/api-client';
import { BatchDialog } from './batch-dialog';
import { runStanding } from './run-standing';

/** How often the list asks again while one of its runs works. */
export const MY_RUNS_POLL_MS = 2000;

/**
 * "Batch runs" in the top bar: the user's own last runs (`GET /batch_runs`), each opened again in the batch dialog,
 * which follows it, downloads its result, retries its failed rows or confirms its preview. A run goes on in the
 * server when its dialog is closed (decision 033); this is where its user finds it again.
 */
export function MyBatchRuns() {
  const [listed, setListed] = useState(false);
  const [opened, setOpened] = useState<number | null>(null);
  const queryClient = useQueryClient();
  const runs = useQuery({
    queryKey: ['batch_runs', 'mine'],
    queryFn: ({ signal }) => api.get<{ data: BatchRunSummary[] }>('/batch_runs', { signal }),
    // Asked each time the list opens (never fresh enough to skip: a run started a moment ago must be in it), and
    // while a run works.
    enabled: listed,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.data.some((r) => !isRunOver(r.status)) ? MY_RUNS_POLL_MS : false),
  });

  return (
    <>
      <Button variant="default" size="compact-sm" onClick={() => setListed(true)}>
        Batch runs
      </Button>
      <Modal opened={listed && opened === null} onClose={() => setListed(false)} title="My batch runs" size="lg" centered>
        {runs.error && (
          <Alert color="red" variant="light" role="alert">
            {runs.error.message}
          </Alert>
        )}
        {runs.data && runs.data.data.length === 0 && <Text size="sm">You have not started a batch run yet.</Text>}
        {runs.data && runs.data.data.length > 0 && (
          <>
            <Table.ScrollContainer minWidth={560}>
              <Table fz="sm" striped aria-label="My batch runs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>Action</Table.Th>
                    <Table.Th>Where it stands</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Open</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {runs.data.data.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.created_timestamp)}</Table.Td>
                      <Table.Td>
                        {r.dry_run ? `Preview: ${r.label}` : r.label} <Text span c="dimmed">(run {r.id})</Text>
                      </Table.Td>
                      <Table.Td>{runStanding(r)}</Table.Td>
                      <Table.Td>
                        <Button variant="subtle" size="compact-sm" onClick={() => setOpened(r.id)} aria-label={`Open run ${r.id}`}>
                          Open
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Text size="xs" c="dimmed" mt="xs">
              Your last {MY_BATCH_RUNS_LISTED} runs, newest first.
            </Text>
          </>
        )}
      </Modal>
      {opened !== null && (
        <BatchDialog
          runId={opened}
          onClose={() => {
            setOpened(null);
            void runs.refetch();
          }}
          // What the run changed shows in every list and record once it is over.
          onFinished={() => void queryClient.invalidateQueries()}
        />
      )}
    </>
  );
}
