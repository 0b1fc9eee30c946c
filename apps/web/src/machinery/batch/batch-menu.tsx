import { useCallback, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Menu } from '@mantine/core';
import { actionPath, type AnyAction, type AnyResource, type BatchStarted, type ViewDescriptor } from '@app/contracts';
import { api } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { refreshAfterWrite } from '../../lib/query-keys';
import { actionFieldDefs, batchActionsOf, failureTextOf } from '../actions/actions';
import { InputDialog } from '../actions/input-dialog';
import type { FieldDef } from '../fields/types';
import type { Overview } from '../overview/use-overview';
import { BatchDialog } from './batch-dialog';

/**
 * Bulk Edit's fields: the resource's own (or fewer, as the view says), each optional; a flag offers Yes / No /
 * empty ("unchanged").
 */
export function bulkEditFields(resource: AnyResource, fields: readonly FieldDef[], view?: ViewDescriptor): FieldDef[] {
  const names = view?.bulkEditFields ?? resource.bulkEdit?.fields ?? [];
  return names.flatMap((name) => {
    const def = fields.find((f) => f.name === name);
    if (!def) return [];
    return [{ ...def, readOnly: false, span: 1, placeholder: 'Unchanged', ...(def.kind === 'boolean' ? { allowEmpty: true } : {}) }];
  });
}

/**
 * Bulk Edit's dialog (spec §2, §5): the resource's bulk fields, all empty ("unchanged"); Apply stays disabled
 * until one is set, so a bulk edit never sends an empty change set. Sends `{changes}` with the fields set.
 */
export function BulkEditDialog(props: {
  descriptor: AnyResource;
  view?: ViewDescriptor;
  action: AnyAction;
  fields: readonly FieldDef[];
  count: number;
  pending: boolean;
  onSubmit: (input: Record<string, unknown>) => void;
  onClose: () => void;
}) {
  const { descriptor, count } = props;
  return (
    <InputDialog
      title="Bulk Edit"
      text={`Changes the ${count} selected ${count === 1 ? descriptor.title : descriptor.titlePlural}. Fields left empty stay unchanged.`}
      fields={bulkEditFields(descriptor, props.fields, props.view)}
      schema={props.action.input.strict()}
      toInput={(wire) => ({ changes: wire })}
      fieldOfPath={(path) => (path[0] === 'changes' ? String(path[1] ?? '') : undefined)}
      requireChange
      submitLabel="Apply"
      pending={props.pending}
      onSubmit={props.onSubmit}
      onClose={props.onClose}
    />
  );
}

interface Asking {
  action: AnyAction;
  /** A batch variant's fixed input and label (Send Email Reminder). */
  variant?: { label: string; input: Record<string, unknown> };
}

/** The Batch menu's entries: one per action, or one per batch variant of an action. */
export function batchEntriesOf(actions: readonly AnyAction[]): { action: AnyAction; label: string; input: Record<string, unknown> }[] {
  return actions.flatMap((action) =>
    action.batch?.variants
      ? action.batch.variants.map((v) => ({ action, label: v.label, input: v.input as Record<string, unknown> }))
      : [{ action, label: action.batch?.label ?? action.label, input: {} }],
  );
}

/**
 * The Batch menu of an overview (spec §2, §4): shown with a selection, to the roles its actions allow. An action
 * asks its input (or a confirmation) first, then runs on the server as a batch run, followed in the batch
 * dialog; a preview action shows its dry run first.
 */
export function BatchMenu<D extends AnyResource>({ overview, view, fields }: { overview: Overview<D>; view: ViewDescriptor; fields: readonly FieldDef[] }) {
  const { descriptor, selection } = overview;
  const { user } = useAuth();
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [runId, setRunId] = useState<number | null>(null);
  const actions = batchActionsOf(descriptor, view, user?.userrole_name);

  const start = useMutation({
    mutationFn: ({ action, input }: { action: AnyAction; input: Record<string, unknown> }) =>
      // A selection action keeps the path the spec names (`POST /contracts/bulk_edit`); the others run as batches.
      api.post<BatchStarted>(actionPath(descriptor.apiPath, action, action.scope === 'selection' ? 'list' : 'batch'), {
        ...input,
        ids: selection.ids.map(Number),
        versions: selection.versions,
        ...(action.preview || action.batch?.preview ? { dry_run: true } : {}),
      }),
    onSuccess: ({ run_id }) => {
      setAsking(null);
      setRunId(run_id);
    },
    // A refused start keeps the dialog and what was typed in it (Bulk Edit's fields), to correct and send again.
    onError: (error, { action }) => alerts.showFailure(error, failureTextOf(action)),
  });

  const finished = useCallback(() => {
    overview.clearSelection();
    void refreshAfterWrite(queryClient, descriptor.key);
  }, [overview, queryClient, descriptor.key]);

  const choose = (action: AnyAction, label: string, fixed: Record<string, unknown>) => {
    if (action.name === 'bulk_edit' || (action.fields?.length ?? 0) > 0 || action.confirm || action.batch?.confirm) setAsking({ action, variant: { label, input: fixed } });
    else start.mutate({ action, input: fixed });
  };

  const dialog = asking && (() => {
    const { action, variant } = asking;
    const isBulk = action.name === 'bulk_edit';
    const count = selection.count;
    if (isBulk) {
      return (
        <BulkEditDialog
          descriptor={descriptor}
          view={view}
          action={action}
          fields={fields}
          count={count}
          pending={start.isPending}
          onSubmit={(input) => start.mutate({ action, input })}
          onClose={() => setAsking(null)}
        />
      );
    }
    return (
      <InputDialog
        title={variant?.label ?? action.batch?.label ?? action.label}
        text={action.batch?.confirm ?? action.confirm ?? `For the ${count} selected ${count === 1 ? descriptor.title : descriptor.titlePlural}.`}
        fields={actionFieldDefs(action)}
        schema={action.input.strict()}
        submitLabel={action.preview || action.batch?.preview ? 'Preview' : 'Run'}
        pending={start.isPending}
        onSubmit={(input) => start.mutate({ action, input: { ...input, ...variant?.input } })}
        onClose={() => setAsking(null)}
      />
    );
  })();

  if (actions.length === 0 || (selection.count === 0 && runId === null && asking === null)) return null;
  return (
    <>
      {selection.count > 0 && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Button variant="default" size="sm" loading={start.isPending && asking === null}>
              Batch
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {batchEntriesOf(actions).map((e) => (
              <Menu.Item key={e.label} onClick={() => choose(e.action, e.label, e.input)}>
                {e.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
      {dialog}
      {runId !== null && <BatchDialog runId={runId} onClose={() => setRunId(null)} onFinished={finished} />}
    </>
  );
}
