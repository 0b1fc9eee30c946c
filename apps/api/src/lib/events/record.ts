import { EVENT_TYPE_IDS, formatDate, maskBankNumber, type EventTypeKey, type FieldChanges } from '@app/contracts';
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
  await recordEvents(db, [event]);
}

/** Several events in one statement (an export's one per payment). */
export async function recordEvents(db: DbOrTx, events: readonly EventInput[]): Promise<void> {
  if (events.length === 0) return;
  await db.insert(logEvents).values(
    events.map((event) => ({
      eventtype_id: EVENT_TYPE_IDS[event.type],
      le_message: escapeControls(event.message),
      usr_id: event.userId ?? null,
      student_id: event.studentId ?? null,
      contract_id: event.contractId ?? null,
      resource: event.resource ?? null,
      record_id: event.recordId ?? null,
      changes: event.changes ?? null,
    })),
  );
}

export const MASK = '***';

const CONTROL_NAMES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A message shows what a user typed, never acts on it: CR and LF cannot start a forged line of a log or an
 * export, and invisible controls or direction overrides (U+202E) cannot disguise it. Each is written as its
 * escape (`\n`, `\u202e`).
 */
export function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => CONTROL_NAMES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function comparable(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return 'null';
  return JSON.stringify(value);
}

/**
 * The fields whose value really changes, old → new (issue 10: the audit trail keeps the values): secret fields
 * show as *** (a password, never even its hash), bank numbers with their first and last four characters only.
 */
export function diffFields(
  before: Record<string, unknown>,
  changes: Record<string, unknown>,
  hide: { secret?: readonly string[]; masked?: readonly string[] } = {},
): FieldChanges {
  const out: FieldChanges = {};
  for (const [field, next] of Object.entries(changes)) {
    const previous = before[field];
    const isSecret = hide.secret?.includes(field) ?? false;
    if (!isSecret && comparable(previous) === comparable(next)) continue;
    const shown = (v: unknown) => (hide.masked?.includes(field) ? maskBankNumber(v) : v);
    out[field] = isSecret ? { old: MASK, new: MASK } : { old: shown(previous instanceof Date ? previous.toISOString() : (previous ?? null)), new: shown(next ?? null) };
  }
  return out;
}

/** A day as staff read it (spec §9: DD-MM-YYYY), other text quoted. */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const shown = (value: unknown): string => {
  const text =
    value === null || value === undefined ? '(empty)' : typeof value === 'string' ? (ISO_DAY.test(value) ? formatDate(value) : `"${value}"`) : String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** `cntry_name "Germany" → "Deutschland"; cntry_code "DE" → "DEU"` */
export function describeChanges(changes: FieldChanges): string {
  return Object.entries(changes)
    .map(([field, c]) => (c.old === MASK ? `${field} changed` : `${field} ${shown(c.old)} → ${shown(c.new)}`))
    .join('; ');
}
