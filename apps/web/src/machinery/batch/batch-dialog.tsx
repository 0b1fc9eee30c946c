import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Group, List, Modal, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { formatMoney, isRunOver, type BatchRun } from '@app/contracts';
import { api, apiDownload, type DownloadedFile } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { saveFile } from '../../lib/save-file';
import { runStanding } from './run-standing';
import { useReturnFocus } from '../../lib/focus';
import { ReasonTooltip } from '../../lib/reason-tooltip';

/** How often the dialog asks how far a run has come. */
export const BATCH_POLL_MS = 400;

export interface BatchDialogProps {
  runId: number;
  onClose: () => void;
  /** Called once, when a run that changed things is over (the overview clears its selection and reloads). */
  onFinished: () => void;
  /** Where "Download results" comes from when not the run's own result (an import's results file, issue 16). */
  downloadResult?: () => Promise<DownloadedFile>;
  /** The name such a result is saved under when the server gives none. */
  resultName?: string;
}

/**
 * Whether a run's rows carry an amount worth a total: an invoice run does (what it would invoice); a mail run
 * answers no amount, or only € 0,00 — "€ 0,00 in all" would only puzzle.
 */
const hasAmount = (run: BatchRun): run is BatchRun & { amount: number } => run.amount !== null && run.amount !== 0;

const resultLabel: Record<BatchRun['rows'][number]['status'], string> = { pending: '…', ok: 'OK', failed: 'Refused', cancelled: 'Cancelled' };

const rowsText = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

/**
 * What Retry failed rows will do, before it is clicked: it does again only the rows whose failure may pass (a
 * clash, a fault); a row refused for its data or its record's state would be refused the same way again.
 */
function retryNote(run: BatchRun): { disabled: string | null; note: string | null } {
  const left = run.failed - run.retryable;
  if (run.retryable === 0) {
    return {
      disabled: `${run.failed === 1 ? 'The failed row was' : `Each of the ${run.failed} failed rows was`} refused for its data or its record's state, and would be refused again: correct ${run.failed === 1 ? 'it' : 'them'} and start again`,
      note: null,
    };
  }
  if (left === 0) return { disabled: null, note: null };
  return { disabled: null, note: `Retry does again the ${rowsText(run.retryable)} that failed for a passing reason. ${rowsText(left)} refused for their data or state would be refused again and ${left === 1 ? 'is' : 'are'} left as ${left === 1 ? 'it is' : 'they are'}.` };
}

/** What a retry did, in words: "2 rows retried: 1 done, 1 failed again — Error for row 5: IBAN: checksum wrong". */
function retrySummary(run: BatchRun, ids: readonly number[]): string {
  const rows = run.rows.filter((r) => ids.includes(r.id));
  const again = rows.filter((r) => r.status === 'failed');
  const done = rows.filter((r) => r.status === 'ok').length;
  return `${rowsText(ids.length)} retried: ${done} done, ${again.length} failed again${again.length > 0 ? ` — ${again.map((r) => r.message).join('; ')}` : ''}`;
}

/**
 * The one batch dialog (spec §4 "Batch runs", DESIGN §10): follows a server-side run with a progress bar and its
 * `Error for {reference}` lines, says `Finished`, then lets the user download the result or retry the failed
 * rows. A preview (dry run) shows what each row would do, and Confirm does it for real.
 */
export function BatchDialog({ runId, onClose, onFinished, downloadResult, resultName }: BatchDialogProps) {
  useReturnFocus();
  const [current, setCurrent] = useState(runId);
  /** The rows the last Retry failed rows did again, to say what became of them once the run is over. */
  const [retried, setRetried] = useState<{ runId: number; ids: number[] } | null>(null);
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const finishedOnce = useRef(new Set<number>());
  const query = useQuery({
    queryKey: ['batch_runs', current],
    // While it works, its counts and refused rows only (a preview of 2,000 rows answered all of them a few times a
    // second, hundreds of kB each, and the tab stalled); every row once it is over.
    queryFn: async ({ signal }) => {
      const working = await api.get<BatchRun>(`/batch_runs/${current}?rows=failed`, { signal });
      return isRunOver(working.status) ? api.get<BatchRun>(`/batch_runs/${current}`, { signal }) : working;
    },
    refetchInterval: (q) => (q.state.data && isRunOver(q.state.data.status) ? false : BATCH_POLL_MS),
  });
  const run = query.data;
  const over = run !== undefined && isRunOver(run.status);

  useEffect(() => {
    if (run && over && !run.dry_run && !finishedOnce.current.has(run.id)) {
      finishedOnce.current.add(run.id);
      onFinished();
    }
  }, [run, over, onFinished]);

  const steer = useMutation({
    mutationFn: async (what: 'cancel' | 'confirm') => {
      const answer = await api.post<BatchRun | { run_id: number }>(`/batch_runs/${current}/${what}`, {});
      return { what, answer };
    },
    onSuccess: ({ what, answer }) => {
      if (what === 'confirm') setCurrent((answer as { run_id: number }).run_id);
      else {
        finishedOnce.current.delete(current);
        void query.refetch();
      }
    },
    onError: (error) => alerts.showFailure(error, 'running the batch'),
  });

  const retry = useMutation({
    mutationFn: async (ids: number[]) => ({ ids, answer: await api.post<BatchRun>(`/batch_runs/${current}/retry_failed`, {}) }),
    onSuccess: ({ ids, answer }) => {
      setRetried({ runId: answer.id, ids });
      finishedOnce.current.delete(answer.id);
      // The run as the retry left it (queued again): the dialog follows it from there, and never reads the rows
      // of before the retry as its outcome.
      queryClient.setQueryData(['batch_runs', answer.id], answer);
    },
    onError: (error) => alerts.showFailure(error, 'running the batch'),
  });

  const download = useMutation({
    mutationFn: () => (downloadResult ? downloadResult() : apiDownload(`/batch_runs/${current}/result`, { method: 'GET' })),
    onSuccess: (file) => saveFile(file, resultName ?? `Batch_${current}.xlsx`),
    onError: (error) => alerts.showFailure(error, 'downloading the batch result'),
  });

  const failed = run?.rows.filter((r) => r.status === 'failed') ?? [];
  const retryOffer = run && run.status === 'finished' && !run.dry_run && run.failed > 0 ? retryNote(run) : null;
  const percent = run && run.total > 0 ? Math.round((run.done / run.total) * 100) : 0;
  const title = run ? (run.dry_run ? `Preview: ${run.label}` : run.label) : 'Batch';

  return (
    <Modal opened onClose={onClose} title={title} centered size="lg" closeOnClickOutside={over}>
      <Stack gap="sm">
        {query.error && (
          <Alert color="red" variant="light" role="alert">
            {query.error.message}
          </Alert>
        )}
        {run?.notes?.map((note) => (
          <Alert key={note} color="yellow" variant="light">
            {note}
          </Alert>
        ))}
        {run && !run.dry_run && (
          <>
            <Progress value={percent} size="lg" aria-label={`${run.label}: ${run.done} of ${run.total} done`} animated={!over} />
            <Text size="sm" aria-live="polite" data-testid="batch-status">
              {runStanding(run)}
            </Text>
            {over && retried?.runId === run.id && (
              <Text size="sm" role="status" data-testid="batch-retried">
                {retrySummary(run, retried.ids)}
              </Text>
            )}
            {failed.length > 0 && (
              <ScrollArea.Autosize mah={220} type="auto">
                <List size="sm" spacing={2} aria-label="Errors" c="red.9">
                  {failed.map((r) => (
                    <List.Item key={r.id}>{r.message}</List.Item>
                  ))}
                </List>
              </ScrollArea.Autosize>
            )}
          </>
        )}
        {run?.dry_run && (
          <>
            <Text size="sm" aria-live="polite" data-testid="batch-status">
              {over
                ? `Nothing has been changed yet. ${run.total - run.failed} of ${run.total} would be done${hasAmount(run) ? `, ${formatMoney(run.amount)} in all` : ''}; ${run.failed} refused.`
                : `Checking ${run.done} of ${run.total}…`}
            </Text>
            {over && run.totals.length > 0 && (
              <Table fz="sm" withTableBorder aria-label="Totals">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Type</Table.Th>
                    <Table.Th ta="right">Rows</Table.Th>
                    <Table.Th ta="right">Amount</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {run.totals.map((t) => (
                    <Table.Tr key={t.group}>
                      <Table.Td>{t.group}</Table.Td>
                      <Table.Td ta="right">{t.count}</Table.Td>
                      <Table.Td ta="right">{formatMoney(t.amount)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <ScrollArea.Autosize mah={320} type="auto">
              <Table fz="sm" striped aria-label="Preview">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Reference</Table.Th>
                    <Table.Th>Result</Table.Th>
                    <Table.Th>What would happen</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {run.rows.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td>{r.reference}</Table.Td>
                      <Table.Td c={r.status === 'failed' ? 'red.9' : undefined}>{resultLabel[r.status]}</Table.Td>
                      <Table.Td>{r.message}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </>
        )}
        {retryOffer?.note && (
          <Text size="sm" c="dimmed" data-testid="batch-retry-note">
            {retryOffer.note}
          </Text>
        )}
        <Group justify="flex-end" gap="xs">
          {run && !over && (
            <Button variant="default" onClick={() => steer.mutate('cancel')} loading={steer.isPending && steer.variables === 'cancel'}>
              Cancel run
            </Button>
          )}
          {run && over && (
            <Button variant="default" onClick={() => download.mutate()} loading={download.isPending}>
              {downloadResult ? 'Download results' : 'Download result'}
            </Button>
          )}
          {/* The API retries a finished run only: a cancelled one's rows not done stay not done. */}
          {run && retryOffer && (
            <ReasonTooltip reason={retryOffer.disabled}>
              <Button
                variant="default"
                disabled={retryOffer.disabled !== null}
                onClick={() => retry.mutate(run.rows.filter((r) => r.status === 'failed' && r.retryable).map((r) => r.id))}
                loading={retry.isPending}
              >
                Retry failed rows
              </Button>
            </ReasonTooltip>
          )}
          {run?.dry_run && over && run.status === 'finished' && run.failed < run.total && (
            <Button onClick={() => steer.mutate('confirm')} loading={steer.isPending && steer.variables === 'confirm'}>
              Confirm
            </Button>
          )}
          {/* While it runs the dialog may be closed too (its X): the run goes on in the server. */}
          {/* A preview's way out runs nothing: it must not look like Confirm beside it. */}
          {over && run?.dry_run && (
            <Button variant="default" onClick={onClose}>
              Close without running
            </Button>
          )}
          {over && !run?.dry_run && <Button onClick={onClose}>Done</Button>}
        </Group>
      </Stack>
    </Modal>
  );
}
