import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button } from '@mantine/core';
import { actionPath, type AnyAction, type AnyResource, type BatchStarted, type ViewDescriptor } from '@app/contracts';
import { api, apiDownload } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { saveFile } from '../../lib/save-file';
import { actionFieldDefs, failureTextOf, listActionsOf } from '../actions/actions';
import { InputDialog } from '../actions/input-dialog';
import { BatchDialog } from '../batch/batch-dialog';
import type { Overview } from './use-overview';

export type ExportBody = { ids: (number | string)[] } | { filter: Record<string, string | number | boolean> };

/** The parts of a list query that choose a page of it, not its rows. */
const PAGING = new Set(['page', 'per_page', 'cursor', 'count']);

/**
 * What a list action covers (DESIGN §4): the selected rows when there are any, otherwise every row of the
 * current filter (quick filter, advanced filters, fixed filters and sort: the list query without its paging).
 */
export function exportBody(overview: Pick<Overview, 'selection' | 'params'>): ExportBody {
  if (overview.selection.count > 0) return { ids: [...overview.selection.ids] };
  const filter: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(overview.params)) {
    if (PAGING.has(key) || value === undefined || value === null || value === '') continue;
    filter[key] = value;
  }
  return { filter };
}

function ListActionButton<D extends AnyResource>({ overview, action }: { overview: Overview<D>; action: AnyAction }) {
  const alerts = useAlerts();
  const [asking, setAsking] = useState(false);
  const [runId, setRunId] = useState<number | null>(null);
  const path = actionPath(overview.descriptor.apiPath, action, 'list');
  const mutation = useMutation({
    mutationFn: async (input: Record<string, unknown>) => {
      // What the action covers (DESIGN §4): the selection, or every row of the current filter.
      const body = action.selectionless ? input : { ...exportBody(overview), ...input };
      if (action.result === 'file') {
        saveFile(await apiDownload(path, { body }), action.filename ?? 'download');
        return;
      }
      const answer = await api.post<{ message?: string } & Partial<BatchStarted>>(path, body);
      if (answer.run_id !== undefined) setRunId(answer.run_id);
      else if (answer.message) alerts.showSuccess(answer.message);
    },
    onSettled: () => setAsking(false),
    onError: (error) => alerts.showFailure(error, failureTextOf(action)),
  });
  const count = overview.selection.count;
  const asks = (action.fields?.length ?? 0) > 0 || action.confirm !== undefined;
  return (
    <>
      <Button
        variant="default"
        size="sm"
        onClick={() => (asks ? setAsking(true) : mutation.mutate({}))}
        loading={mutation.isPending}
        title={count > 0 ? `For the ${count} selected rows` : 'For every row of the current filter'}
      >
        {action.label}
      </Button>
      {asking && (
        <InputDialog
          title={action.label}
          text={action.confirm}
          fields={actionFieldDefs(action)}
          schema={action.input.omit(Object.fromEntries(['ids', 'filter'].filter((k) => k in action.input.shape).map((k) => [k, true])) as never)}
          submitLabel={action.label}
          pending={mutation.isPending}
          onSubmit={(input) => mutation.mutate(input)}
          onClose={() => setAsking(false)}
        />
      )}
      {runId !== null && <BatchDialog runId={runId} onClose={() => setRunId(null)} onFinished={() => overview.refetch()} />}
    </>
  );
}

/** The overview's actions on the whole list or the selection (exports; later imports), for the user's role. */
export function ListActions<D extends AnyResource>({ overview, view }: { overview: Overview<D>; view: ViewDescriptor }) {
  const { user } = useAuth();
  const actions = listActionsOf(overview.descriptor, view, user?.userrole_name);
  return (
    <>
      {actions.map((a) => (
        <ListActionButton key={a.name} overview={overview} action={a} />
      ))}
    </>
  );
}
