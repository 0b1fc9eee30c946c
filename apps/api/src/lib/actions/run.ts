import { AppError, whyNotOffered, type AnyAction } from '@app/contracts';
import type { Tx } from '@app/db';
import type { AppContext } from '../context.js';
import { requireVersion, type Actor } from '../crud/crud-service.js';
import { describeChanges, recordEvent } from '../events/record.js';
import type { ResourceModule } from './module.js';
import type { UploadedFile } from '../files/upload.js';
import type { ActionOutcome } from './types.js';

export interface RecordActionRequest {
  id: number;
  /** The action's input, validated by its schema. */
  input: Record<string, unknown>;
  actor: Actor;
  /** The version the caller saw: a record changed since is refused (409), not overwritten. */
  version?: string;
  file?: UploadedFile;
}

/**
 * Runs a record action in `tx`: locks the record, refuses a stale version or a state the action is not offered
 * in (409 with the reason), does the work through the action's one service function and records the event.
 * The single route and every batch row go through here, so they behave the same.
 */
export async function runRecordAction(ctx: AppContext, tx: Tx, mod: ResourceModule, action: AnyAction, request: RecordActionRequest): Promise<ActionOutcome> {
  const impl = mod.actions.get(action.name);
  if (!impl || impl.kind !== 'record') throw new Error(`${mod.resource.key}: ${action.name} is not a record action`);
  const { service } = mod;
  const locked = await service.lock(tx, request.id);
  service.checkLockedFor(locked.row, request.actor);
  if (action.versioned) requireVersion(request.version);
  await service.checkVersion(tx, locked, request.version);
  const reason = whyNotOffered(action, locked.row, request.input);
  if (reason) throw new AppError('CONFLICT', reason);
  const target = { id: request.id, row: locked.row, version: request.version, file: request.file };
  const outcome = (await impl.run(tx, request.actor, target, request.input as never, { ctx, service })) ?? {};
  if (!outcome.eventRecorded) {
    const detail = outcome.message ?? (outcome.changes && Object.keys(outcome.changes).length > 0 ? describeChanges(outcome.changes) : undefined);
    await recordEvent(tx, {
      ...service.eventOf(outcome.eventType ?? 'update', locked.row, request.actor.user),
      message: `${action.label}: ${mod.resource.title} "${service.reference(locked.row)}"${detail ? ` — ${detail}` : ''}`,
      changes: outcome.changes,
    });
  }
  return outcome;
}
