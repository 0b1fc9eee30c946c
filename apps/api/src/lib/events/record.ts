import { EVENT_TYPE_IDS, type EventTypeKey, type FieldChanges } from '@app/contracts';
import { logEvents, type DbOrTx } from '@app/db';

export interface EventInput {
  type: EventTypeKey;
  message: string;
  userId?: number | null;
  studentId?: number | null;
  contractId?: number | null;
  /** The resource key and record the event is about. */
  resource?: string;
  recordId?: number;
  changes?: FieldChanges;
}

/**
 * The one way to write the event log. Pass the transaction of the change it records, so the event and
 * the change are committed together or not at all (DESIGN §8).
 */
export async function recordEvent(db: DbOrTx, event: EventInput): Promise<void> {
  await db.insert(logEvents).values({
    eventtype_id: EVENT_TYPE_IDS[event.type],
    le_message: event.message,
    usr_id: event.userId ?? null,
    student_id: event.studentId ?? null,
    contract_id: event.contractId ?? null,
    resource: event.resource ?? null,
    record_id: event.recordId ?? null,
    changes: event.changes ?? null,
  });
}

export const MASK = '***';

function comparable(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return 'null';
  return JSON.stringify(value);
}

/** The fields whose value really changes, old → new; secret fields show as ***. */
export function diffFields(before: Record<string, unknown>, changes: Record<string, unknown>, secret: readonly string[] = []): FieldChanges {
  const out: FieldChanges = {};
  for (const [field, next] of Object.entries(changes)) {
    const previous = before[field];
    const isSecret = secret.includes(field);
    if (!isSecret && comparable(previous) === comparable(next)) continue;
    out[field] = isSecret ? { old: MASK, new: MASK } : { old: previous instanceof Date ? previous.toISOString() : (previous ?? null), new: next ?? null };
  }
  return out;
}

const shown = (value: unknown): string => {
  const text = value === null || value === undefined ? '(empty)' : typeof value === 'string' ? `"${value}"` : String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** `cntry_name "Germany" → "Deutschland"; cntry_code "DE" → "DEU"` */
export function describeChanges(changes: FieldChanges): string {
  return Object.entries(changes)
    .map(([field, c]) => (c.old === MASK ? `${field} changed` : `${field} ${shown(c.old)} → ${shown(c.new)}`))
    .join('; ');
}
