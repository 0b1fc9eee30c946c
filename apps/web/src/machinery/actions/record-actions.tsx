import { useRef, useState, type ReactElement } from 'react';
import { useIsMutating } from '@tanstack/react-query';
import { Button, Collapse, Group, Menu } from '@mantine/core';
import { whyNotOffered, type AnyAction, type AnyResource, type ViewDescriptor } from '@app/contracts';
import { useAuth } from '../../lib/auth';
import { ChevronDownIcon } from '../../lib/icons';
import { usePhone } from '../../lib/layout';
import { ReasonTooltip } from '../../lib/reason-tooltip';
import { useRequestKey } from '../../lib/request-key';
import type { Detail } from '../detail/use-detail';
import { actionFieldDefs, confirmTextOf, recordActionsOf } from './actions';
import { InputDialog } from './input-dialog';
import { recordActionKey, useRecordAction, type RecordActionCall } from './use-record-action';

type Row = Record<string, unknown> & { id: number | string; edit_timestamp?: string | null };
type Variant = NonNullable<AnyAction['variants']>[number];

interface ActionProps {
  resource: AnyResource;
  action: AnyAction;
  record: Row;
  onRecord: (row: Row) => void;
  /** Another action of this record is running: this one waits (a double click must not run a second one). */
  held: boolean;
}

/**
 * An action with variants (the status changes: one per target status) as one menu under the action's label. The
 * menu stays where it is whatever the record's state; its items are the variants offered now (spec §4 "Offered
 * from"), so nothing moves under the pointer between two clicks. A declared confirm asks first.
 */
function VariantMenu({ resource, action, record, onRecord, held }: ActionProps) {
  const mutation = useRecordAction(resource, action, onRecord);
  const [confirming, setConfirming] = useState<Variant | null>(null);
  const variants = action.variants ?? [];
  const offered = variants.filter((v) => whyNotOffered(action, record, v.input) === null);
  const reason = offered.length > 0 ? null : (whyNotOffered(action, record) ?? `${action.label} is not offered in this state`);
  const run = (variant: Variant, onDone?: () => void) =>
    mutation.mutate({ id: record.id, input: variant.input as Record<string, unknown>, version: record.edit_timestamp }, { onSuccess: onDone });
  const button = (
    <Button
      variant="light"
      rightSection={<ChevronDownIcon size={14} />}
      loading={mutation.isPending}
      disabled={reason !== null || held}
      data-disabled-reason={reason ?? undefined}
    >
      {action.label}
    </Button>
  );
  return (
    <>
      {reason !== null || held ? (
        <ReasonTooltip reason={reason}>{button}</ReasonTooltip>
      ) : (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>{button}</Menu.Target>
          <Menu.Dropdown>
            {offered.map((v) => (
              <Menu.Item key={v.label} onClick={() => (confirmTextOf(action, record, v.input) ? setConfirming(v) : run(v))}>
                {v.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
      {confirming && (
        <InputDialog
          title={confirming.label}
          text={confirmTextOf(action, record, confirming.input)}
          fields={[]}
          schema={action.input.strict()}
          submitLabel="Yes"
          pending={mutation.isPending}
          onSubmit={() => run(confirming, () => setConfirming(null))}
          onClose={() => setConfirming(null)}
        />
      )}
    </>
  );
}

/**
 * An action whose variants are buttons of their own (`variantButtons`: an invoice's Send Email and Send Reminder):
 * each runs the action with its fixed input and is disabled with its own reason, so the one wanted is a click away.
 */
function VariantButtons(props: ActionProps) {
  const { action } = props;
  return (action.variants ?? []).map((v) => (
    <ActionButton
      key={v.label}
      {...props}
      action={{ ...action, label: v.label, variants: undefined, offeredWhen: (row) => whyNotOffered(action, row, v.input) }}
      fixedInput={v.input as Record<string, unknown>}
    />
  ));
}

/** One action's button; an action that asks (fields, a confirm) opens its dialog first. */
function ActionButton({ resource, action, record, onRecord, held, fixedInput }: ActionProps & { fixedInput?: Record<string, unknown> }) {
  const mutation = useRecordAction(resource, action, onRecord);
  const [asking, setAsking] = useState(false);
  // Asked again after a lost answer, the action is done once (decision 050); once done, the next is a new one.
  const requestKey = useRequestKey();
  // The dialog stays open with what was typed until the action is done: a refusal (409) is corrected in place.
  const buttonRef = useRef<HTMLButtonElement>(null);
  const run = (input: Record<string, unknown> = {}, onDone?: () => void) =>
    mutation.mutate(
      { id: record.id, input: { ...input, ...fixedInput }, version: record.edit_timestamp, requestKey: requestKey.headers() },
      {
        onSuccess: () => {
          requestKey.done();
          onDone?.();
        },
        // The button was disabled while the action ran, and focus fell to the page: it comes back to the button.
        onSettled: () =>
          setTimeout(() => {
            if (document.activeElement === document.body && buttonRef.current && !buttonRef.current.disabled) buttonRef.current.focus();
          }, 0),
        // A dialog that only asks (no fields) has nothing to correct: it closes with the refusal (decision 054).
        onError: () => {
          if (!action.fields?.length) setAsking(false);
        },
      },
    );
  const reason = whyNotOffered(action, record);
  const confirm = confirmTextOf(action, record, fixedInput);
  const asks = (action.fields?.length ?? 0) > 0 || confirm !== undefined;
  return (
    <>
      <ReasonTooltip reason={reason}>
        <Button
          ref={buttonRef}
          variant="light"
          onClick={() => (asks ? setAsking(true) : run())}
          loading={mutation.isPending}
          disabled={reason !== null || (held && !mutation.isPending)}
          data-disabled-reason={reason ?? undefined}
        >
          {action.label}
        </Button>
      </ReasonTooltip>
      {asking && (
        <InputDialog
          title={action.label}
          text={confirm}
          fields={actionFieldDefs(action)}
          record={record}
          schema={action.input.strict()}
          submitLabel={confirm && !action.fields?.length ? 'Yes' : action.label}
          pending={mutation.isPending}
          onSubmit={(input) => run(input, () => setAsking(false))}
          onClose={() => setAsking(false)}
        />
      )}
    </>
  );
}

/**
 * The actions of a read-only record (spec §2 "Detail screens": extra options), from the resource's declarations:
 * the ones its view offers to the user's role, each shown or disabled by the record's state. While one of them
 * runs, the others wait.
 */
export function RecordActions({ detail, view }: { detail: Detail; view: ViewDescriptor }) {
  const { user } = useAuth();
  const { descriptor, record } = detail;
  const running = useIsMutating({
    mutationKey: recordActionKey(descriptor.key),
    predicate: (m) => record !== undefined && String((m.state.variables as RecordActionCall | undefined)?.id) === String(record.id),
  });
  if (detail.mode !== 'read' || !record) return null;
  const actions = recordActionsOf(descriptor, view, user?.userrole_name);
  if (actions.length === 0) return null;
  const buttons = (
    <Group gap="xs" role="group" aria-label="Actions">
      {actions.map((a) => {
        const props = { resource: descriptor, action: a, record: record as Row, onRecord: detail.setRecord, held: running > 0 };
        if (!a.variants) return <ActionButton key={a.name} {...props} />;
        return a.variantButtons ? <VariantButtons key={a.name} {...props} /> : <VariantMenu key={a.name} {...props} />;
      })}
    </Group>
  );
  return <NarrowFolded count={actions.length}>{buttons}</NarrowFolded>;
}

/** More actions than a phone shows above the record: folded there, behind one button (decision 054). */
const FOLDED_FROM = 4;

/**
 * On a narrow screen (a phone) a record with many actions would show only buttons on its first screen (a
 * contract has thirteen): they are folded behind "Actions (13)", kept mounted, so a dialog one of them opened
 * stays. Wide screens show them as before.
 */
function NarrowFolded({ count, children }: { count: number; children: ReactElement }) {
  const narrow = usePhone();
  const [open, setOpen] = useState(false);
  if (!narrow || count < FOLDED_FROM) return children;
  return (
    <div>
      <Button variant="default" aria-expanded={open} onClick={() => setOpen((o) => !o)} rightSection={<ChevronDownIcon size={14} />}>
        {`Actions (${count})`}
      </Button>
      <Collapse expanded={open} mt={open ? 'xs' : 0}>
        {children}
      </Collapse>
    </div>
  );
}
