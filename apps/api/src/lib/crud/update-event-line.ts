import type { FieldChanges } from '@app/contracts';
import type { Tx } from '@app/db';
import { describeChanges } from '../events/record.js';
import type { Actor, CrudHooks } from './crud-service.js';

/**
 * Hooks for an update that does more than change the record, in its transaction (`follow`: a fee's change reaches
 * the rows planned from it, decision 038; a payment's edit lets go of its confirmation, decision 046), and says so
 * where staff read it: `follow` answers the line saying what it did (or undefined), and the record's own update
 * event ends with that line (the PUT answers the row only).
 */
export function withUpdateEventLine(
  title: string,
  follow: (tx: Tx, actor: Actor, id: number, changed: FieldChanges) => Promise<string | undefined>,
): Pick<CrudHooks, 'afterChange' | 'updateEvent'> {
  /** What each update did, keyed by the update's own `changed` object (the event hook runs after afterChange). */
  const reached = new WeakMap<FieldChanges, string>();
  return {
    afterChange: async (tx, change, actor) => {
      if (change.op !== 'update') return;
      const line = await follow(tx, actor, change.id, change.changed);
      if (line) reached.set(change.changed, line);
    },
    updateEvent: (changed, reference) => {
      const line = reached.get(changed);
      return line === undefined ? undefined : { type: 'update', message: `Updated ${title} ${reference}: ${describeChanges(changed)}. ${line}` };
    },
  };
}
