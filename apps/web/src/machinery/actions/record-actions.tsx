import { useState } from 'react';
import { Button, Group, Tooltip } from '@mantine/core';
import { whyNotOffered, type AnyAction, type AnyResource, type ViewDescriptor } from '@app/contracts';
import { useAuth } from '../../lib/auth';
import type { Detail } from '../detail/use-detail';
import { actionFieldDefs, recordActionsOf } from './actions';
import { InputDialog } from './input-dialog';
import { useRecordAction } from './use-record-action';

type Row = Record<string, unknown> & { id: number | string; edit_timestamp?: string | null };

/** One action's button(s) on a record: one per variant offered, or one, disabled with the reason when not offered. */
function ActionButtons({ resource, action, record, onRecord }: { resource: AnyResource; action: AnyAction; record: Row; onRecord: (row: Row) => void }) {
  const mutation = useRecordAction(resource, action, onRecord);
  const [asking, setAsking] = useState(false);
  const run = (input: Record<string, unknown> = {}) => mutation.mutate({ id: record.id, input, version: record.edit_timestamp });
  const busy = (input: unknown) => mutation.isPending && JSON.stringify(mutation.variables?.input ?? {}) === JSON.stringify(input);

  if (action.variants) {
    const offered = action.variants.filter((v) => whyNotOffered(action, record, v.input) === null);
    return (
      <>
        {offered.map((v) => (
          <Button key={v.label} variant="light" onClick={() => run(v.input)} loading={busy(v.input)} disabled={mutation.isPending && !busy(v.input)}>
            {v.label}
          </Button>
        ))}
      </>
    );
  }

  const reason = whyNotOffered(action, record);
  const asks = (action.fields?.length ?? 0) > 0 || action.confirm !== undefined;
  const button = (
    <Button variant="light" onClick={() => (asks ? setAsking(true) : run())} loading={mutation.isPending} disabled={reason !== null} data-disabled-reason={reason ?? undefined}>
      {action.label}
    </Button>
  );
  return (
    <>
      {reason ? (
        <Tooltip label={reason} withArrow>
          <span>{button}</span>
        </Tooltip>
      ) : (
        button
      )}
      {asking && (
        <InputDialog
          title={action.label}
          text={action.confirm}
          fields={actionFieldDefs(action)}
          record={record}
          schema={action.input.strict()}
          submitLabel={action.confirm && !action.fields?.length ? 'Yes' : action.label}
          pending={mutation.isPending}
          onSubmit={(input) => mutation.mutate({ id: record.id, input, version: record.edit_timestamp }, { onSettled: () => setAsking(false) })}
          onClose={() => setAsking(false)}
        />
      )}
    </>
  );
}

/**
 * The actions of a read-only record (spec §2 "Detail screens": extra options), from the resource's declarations:
 * the ones its view offers to the user's role, each shown or disabled by the record's state.
 */
export function RecordActions({ detail, view }: { detail: Detail; view: ViewDescriptor }) {
  const { user } = useAuth();
  const { descriptor, record } = detail;
  if (detail.mode !== 'read' || !record) return null;
  const actions = recordActionsOf(descriptor, view, user?.userrole_name);
  if (actions.length === 0) return null;
  return (
    <Group gap="xs" role="group" aria-label="Actions">
      {actions.map((a) => (
        <ActionButtons key={a.name} resource={descriptor} action={a} record={record as Row} onRecord={detail.setRecord} />
      ))}
    </Group>
  );
}
