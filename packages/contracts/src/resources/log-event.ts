import { z } from 'zod';
import { defineResource } from '../common/resource.js';
import { isoDate, positiveId, text } from '../common/fields.js';

/** Event types of the log (seeded with these ids by the migrations; a test keeps the two equal). */
export const EVENT_TYPES = [
  { id: 1, key: 'login', name: 'Login' },
  { id: 2, key: 'loginFailed', name: 'Login failed' },
  { id: 3, key: 'logout', name: 'Logout' },
  { id: 4, key: 'create', name: 'Create' },
  { id: 5, key: 'update', name: 'Update' },
  { id: 6, key: 'delete', name: 'Delete' },
  { id: 7, key: 'passwordChange', name: 'Password change' },
  { id: 8, key: 'statusChange', name: 'Status change' },
  { id: 9, key: 'pdfCreated', name: 'PDF created' },
  { id: 10, key: 'emailQueued', name: 'E-mail queued' },
  { id: 11, key: 'emailSent', name: 'E-mail sent' },
  { id: 12, key: 'emailFailed', name: 'E-mail failed' },
  { id: 13, key: 'import', name: 'Import' },
  { id: 14, key: 'bulkEdit', name: 'Bulk edit' },
  { id: 15, key: 'batchRun', name: 'Batch run' },
  { id: 16, key: 'export', name: 'Export' },
  { id: 17, key: 'accessRefused', name: 'Access refused' },
  { id: 18, key: 'templateFailed', name: 'Template failed' },
] as const;

export type EventTypeKey = (typeof EVENT_TYPES)[number]['key'];
export const EVENT_TYPE_IDS = Object.fromEntries(EVENT_TYPES.map((t) => [t.key, t.id])) as Record<EventTypeKey, number>;

/** What an update event records per changed field (secrets shown as ***). */
export type FieldChanges = Record<string, { old: unknown; new: unknown }>;

export const LogEventSchema = z.object({
  id: z.number().int(),
  le_time: z.string(),
  eventtype_id: z.number().int(),
  eventtype: z.string(),
  le_message: z.string(),
  student_id: z.number().int().nullable(),
  student_name: z.string().nullable(),
  contract_id: z.number().int().nullable(),
  le_contract: z.string().nullable(),
  usr_id: z.number().int().nullable(),
  usr_name: z.string().nullable(),
  changes: z.record(z.string(), z.object({ old: z.unknown(), new: z.unknown() })).nullable(),
  /** The resource key of the record the event is about (`invoice`), when it is about one: a History names its fields. */
  resource: z.string().nullable(),
});


export const LogEventFilterSchema = z.object({
  student_id: positiveId('student_id').optional(),
  contract_id: positiveId('contract_id').optional(),
  usr_id: positiveId('usr_id').optional(),
  eventtype_id: positiveId('eventtype_id').optional(),
  /** Event time date range, inclusive, in the office's time zone. */
  le_time_from: isoDate('le_time_from').optional(),
  le_time_to: isoDate('le_time_to').optional(),
  /** The events of one record (a detail screen's History): its resource key and id. */
  resource: text('resource').trim().min(1).max(50, 'resource must be a resource key').optional(),
  record_id: positiveId('record_id').optional(),
});

/** The log is written by the system only: nobody creates, edits or deletes events. */
const NoInput = z.object({}).strict();

export type LogEvent = z.infer<typeof LogEventSchema>;

export const logEventResource = defineResource({
  key: 'logEvent',
  title: 'Log Event',
  titlePlural: 'Log Events',
  apiPath: 'logging',
  routes: { overview: '/events', detail: '/event' },
  schema: LogEventSchema,
  createSchema: NoInput,
  updateSchema: NoInput,
  filterSchema: LogEventFilterSchema,
  sortable: ['le_time', 'eventtype', 'le_message', 'student_name', 'le_contract', 'usr_name'],
  defaultSort: [{ field: 'le_time', direction: 'desc' }],
  access: { read: 'reader', write: 'developer' },
  deletable: false,
  readOnly: true,
  referenceField: 'id',
  columns: [
    { field: 'le_time', title: 'Time', format: 'datetime', width: 140 },
    { field: 'eventtype', title: 'Event Type', width: 130 },
    { field: 'le_message', title: 'Message' },
    { field: 'student_name', title: 'Student' },
    { field: 'le_contract', title: 'Contract' },
    { field: 'usr_name', title: 'User' },
  ],
});
