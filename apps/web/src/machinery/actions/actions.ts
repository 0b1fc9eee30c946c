import { actionsOf, referenceOf, runsAsBatch, type AnyAction, type AnyResource, type RoleName, roleHasLevel, type ViewDescriptor } from '@app/contracts';
import { formatDateTime } from '../../lib/format';
import type { FieldDef } from '../fields/types';

/** Where an action is offered: in this view (all views when it names none) and to this role. */
function offeredIn(action: AnyAction, view: ViewDescriptor, role: string | undefined): boolean {
  return (!action.views || action.views.includes(view.key)) && roleHasLevel(role as RoleName | undefined, action.level);
}

/**
 * The buttons of a read-only record: its record actions for this view and role. An upload needs a file chosen
 * first: it is drawn where the files are (a documents list), not as a button of the record.
 */
export function recordActionsOf(resource: AnyResource, view: ViewDescriptor, role: string | undefined): AnyAction[] {
  return actionsOf(resource).filter((a) => a.scope === 'record' && !a.upload && offeredIn(a, view, role));
}

/** The entries of an overview's Batch menu: actions that run on a selection, for this view and role. */
export function batchActionsOf(resource: AnyResource, view: ViewDescriptor, role: string | undefined): AnyAction[] {
  return actionsOf(resource).filter((a) => runsAsBatch(a) && offeredIn(a, view, role));
}

/** The overview's extra options on the whole list (exports). */
export function listActionsOf(resource: AnyResource, view: ViewDescriptor, role: string | undefined): AnyAction[] {
  return actionsOf(resource).filter((a) => a.scope === 'list' && offeredIn(a, view, role));
}

/** The input fields of an action's dialog, as the field kinds of the detail screens draw them. */
export function actionFieldDefs(action: AnyAction): FieldDef[] {
  return (action.fields ?? []).map((f) => ({ ...f }));
}

/** What a failure of the action is called in `Server error while {…}` (spec §8). */
export function failureTextOf(action: AnyAction): string {
  return action.failureText ?? action.label.toLowerCase();
}

/** The label of a record action run with this input: the variant whose fixed input it is (Reject Offer), else the action's. */
export function recordLabelOf(action: Pick<AnyAction, 'label' | 'variants'>, input: Record<string, unknown> = {}): string {
  const variant = action.variants?.find((v) => Object.entries(v.input as Record<string, unknown>).every(([k, value]) => input[k] === value));
  return variant?.label ?? action.label;
}

/**
 * What a record action that answered its record says in its green alert: what was done, to which record, named
 * as it is now (a planned invoice answers with its new number). A message answer says it in its own words.
 */
export function recordDoneText(label: string, resource: Pick<AnyResource, 'title' | 'referenceField' | 'reference'>, row: Record<string, unknown>): string {
  return `${label}: done for ${resource.title} ${referenceOf(resource, row)}`;
}

/**
 * What an action's confirm says on this record: its declared question, after when it was done before
 * (`doneBefore`: "This invoice was already e-mailed on 05-03-2026 10:30."). Undefined: it asks nothing.
 */
export function confirmTextOf(action: Pick<AnyAction, 'confirm' | 'doneBefore'>, record: Record<string, unknown>, input?: Record<string, unknown>): string | undefined {
  const done = action.doneBefore?.(record, input as never);
  const before = done ? `${done.what} on ${formatDateTime(done.at)}.` : undefined;
  return before && action.confirm ? `${before} ${action.confirm}` : (before ?? action.confirm);
}
