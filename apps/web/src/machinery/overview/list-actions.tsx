import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionIcon, Button, Menu } from '@mantine/core';
import { CogIcon } from '../../lib/icons';
import { actionPath, isImportAction, type AnyAction, type AnyResource, type BatchStarted, type ViewDescriptor } from '@app/contracts';
import { api, apiDownload } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { refreshAfterWrite } from '../../lib/query-keys';
import { saveFile } from '../../lib/save-file';
import { actionFieldDefs, failureTextOf, listActionsOf } from '../actions/actions';
import { InputDialog } from '../actions/input-dialog';
import { BatchDialog } from '../batch/batch-dialog';
import type { Overview } from './use-overview';

export type ExportBody = { ids?: (number | string)[]; filter: Record<string, string | number | boolean> };

/** The parts of a list query that choose a page of it, not its rows. */
const PAGING = new Set(['page', 'per_page', 'cursor', 'count']);

/**
 * What a list action covers (DESIGN §4): the selected rows when there are any, otherwise every row of the
 * current filter (quick filter, advanced filters, fixed filters and sort: the list query without its paging).
 * The selected rows come in the overview's order, and an export writes its view's columns: the view's fixed
 * filter and the sort go with them (the selected rows are in that view).
 */
export function exportBody(overview: Pick<Overview, 'selection' | 'params' | 'fixedFilters'>): ExportBody {
  const filter: Record<string, string | number | boolean> = {};
  const selected = overview.selection.count > 0;
  for (const [key, value] of Object.entries(overview.params)) {
    if (PAGING.has(key) || value === undefined || value === null || value === '') continue;
    if (selected && key !== 'sort' && !(key in (overview.fixedFilters ?? {}))) continue;
    filter[key] = value;
  }
  return selected ? { ids: [...overview.selection.ids], filter } : { filter };
}

function ListActionButton<D extends AnyResource>({ overview, action, asMenuItem }: { overview: Overview<D>; action: AnyAction; asMenuItem?: boolean }) {
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [runId, setRunId] = useState<number | null>(null);
  const path = actionPath(overview.descriptor.apiPath, action, 'list');
  const mutation = useMutation({
    mutationFn: async (input: Record<string, unknown>) => {
      // What the action covers (DESIGN §4): the selection, or every row of the current filter.
      const body = action.selectionless ? input : { ...exportBody(overview), ...input };
      if (action.result === 'file') {
        // A file of many rows takes a while (885,000 invoices: a minute): the screen says it is being made.
        const filename = action.filename ?? 'download';
        const covers = action.selectionless ? '' : Array.isArray(body.ids) ? ` for the ${body.ids.length} selected rows` : ' for every row of the current filter';
        const done = alerts.showProgress(`Preparing ${filename}${covers}…`);
        try {
          const message = saveFile(await apiDownload(path, { body }), filename);
          if (message) alerts.showSuccess(message);
        } finally {
          done();
        }
        return;
      }
      const answer = await api.post<{ message?: string } & Partial<BatchStarted>>(path, body);
      if (answer.run_id !== undefined) setRunId(answer.run_id);
      else if (answer.message) alerts.showSuccess(answer.message);
    },
    // An action that changes the rows it covers (Export Payments marks them exported, and answers a file): the
    // list shows them as they are afterwards.
    // The dialog closes when the action is done; after a failure it stays with what was typed, to correct and send
    // again. A dialog that only asks (no fields) has nothing to correct: it closes with the refusal (decision 054).
    onSuccess: async () => {
      setAsking(false);
      if (action.changesRecord) await refreshAfterWrite(queryClient, overview.descriptor.key);
    },
    onError: (error) => {
      if (!action.fields?.length) setAsking(false);
      alerts.showFailure(error, failureTextOf(action));
    },
  });
  // What the action would do, asked of the server while its confirm is open (Export Payments: how many, how much).
  const covered = exportBody(overview);
  const summary = useQuery({
    queryKey: ['action-summary', action.summaryPath, covered],
    queryFn: () => api.post<{ message: string }>(action.summaryPath!, covered),
    enabled: asking && action.summaryPath !== undefined,
    staleTime: 0,
    gcTime: 0,
  });
  const summaryText = !action.summaryPath ? '' : summary.data ? summary.data.message : summary.isError ? 'What it would do could not be counted.' : 'Counting what it would do…';
  const count = overview.selection.count;
  const asks = (action.fields?.length ?? 0) > 0 || action.confirm !== undefined;
  const onClick = () => (asks ? setAsking(true) : mutation.mutate({}));
  const scope = count > 0 ? `For the ${count} selected rows` : 'For every row of the current filter';
  return (
    <>
      {asMenuItem ? (
        <Menu.Item onClick={onClick} disabled={mutation.isPending} title={scope}>
          {action.label}
        </Menu.Item>
      ) : (
        <Button variant="default" size="sm" onClick={onClick} loading={mutation.isPending} title={scope}>
          {action.label}
        </Button>
      )}
      {asking && (
        <InputDialog
          title={action.label}
          text={summaryText ? `${action.confirm ?? ''} ${summaryText}`.trim() : action.confirm}
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

/**
 * The overview's actions on the whole list or the selection (exports; later imports), for the user's role: as
 * buttons, or in a cog menu (`inMenu`, the invoice overviews of spec §2).
 */
export function ListActions<D extends AnyResource>({ overview, view, inMenu }: { overview: Overview<D>; view: ViewDescriptor; inMenu?: boolean }) {
  const { user } = useAuth();
  // Imports take a file or a form of their own: the resource draws them in its Import menu.
  const actions = listActionsOf(overview.descriptor, view, user?.userrole_name).filter((a) => !isImportAction(a.name));
  if (inMenu && actions.length > 0) {
    return (
      // Kept mounted: an item's dialog and its running export outlive the closed menu.
      <Menu position="bottom-end" withinPortal keepMounted>
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label="Options">
            <CogIcon />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {actions.map((a) => (
            <ListActionButton key={a.name} overview={overview} action={a} asMenuItem />
          ))}
        </Menu.Dropdown>
      </Menu>
    );
  }
  return (
    <>
      {actions.map((a) => (
        <ListActionButton key={a.name} overview={overview} action={a} />
      ))}
    </>
  );
}
