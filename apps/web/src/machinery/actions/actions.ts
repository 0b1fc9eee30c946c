import { actionsOf, runsAsBatch, type AnyAction, type AnyResource, type RoleName, roleHasLevel, type ViewDescriptor } from '@app/contracts';
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
