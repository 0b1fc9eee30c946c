import { z } from 'zod';
import type { Level } from '../auth/roles.js';
import type { ChoiceListName } from './choice.js';
import type { FileKind } from './files.js';
import { INT4_MAX } from './input.js';

/**
 * Where an action works: on one record (`POST /{resource}/{id}/{action}`), on a selection of records as a
 * batch run (`POST /{resource}/batch/{action}`), or on the resource as a whole (`POST /{resource}/{action}`).
 */
export type ActionScope = 'record' | 'selection' | 'list';

/**
 * What an action answers: the changed record (merged into the screen), a message (shown), a file
 * (downloaded), or a batch run (followed in the batch dialog).
 */
export type ActionResultKind = 'record' | 'message' | 'file' | 'batch';

/** Field kinds of the detail screens, filter cards and action dialogs (spec §2 "Detail screens"). */
export type FieldKind =
  | 'text'
  | 'textarea'
  | 'password'
  | 'email'
  | 'phone'
  | 'iban'
  | 'number'
  | 'money'
  | 'date'
  | 'simpleDate'
  | 'timestamp'
  | 'dateRange'
  | 'boolean'
  | 'select';

/** How an action's dialog asks for one input field (the field's rules are the input schema's). */
export interface ActionField {
  name: string;
  label: string;
  kind: FieldKind;
  choices?: ChoiceListName;
  /**
   * Parameters of the choice list, given the record the action runs on with the dialog's values over it (the
   * registration fees of the invoice's contract). Empty values are not sent.
   */
  choiceParamsFor?: (values: Readonly<ActionRow>) => Record<string, string | number | boolean | null | undefined>;
  options?: readonly { value: string | number | boolean; label: string }[];
  description?: string;
  /** boolean: Yes / No / empty, so that "unchanged" differs from "No" (bulk edit). */
  allowEmpty?: boolean;
}

/** An upload action takes one file (multipart field `field`) besides its input. */
export interface UploadSpec {
  field: string;
  maxBytes: number;
  /** Kinds accepted, recognised from the content. */
  types: readonly FileKind[];
}

export type ActionRow = Record<string, unknown>;

/**
 * One action, declared once beside its resource (CONVENTIONS "Actions"). The API derives its routes, role
 * check, input validation, "not offered in this state" (409), event entry and OpenAPI entry from this; the web
 * derives its button or menu item, input dialog and the handling of its result.
 */
export interface ActionDescriptor<Input extends z.ZodObject = z.ZodObject> {
  /** Path segment and key (`update_status`). */
  name: string;
  /** Label of the button or menu item. */
  label: string;
  scope: ActionScope;
  input: Input;
  /** The dialog's fields; an action without fields asks nothing (or only a confirmation). */
  fields?: readonly ActionField[];
  result: ActionResultKind;
  /**
   * The action changes the record it runs on (a field, an amount or count computed from other records, its
   * version): a detail screen showing the record shows it as it is afterwards — the answered record of a
   * `record` result, otherwise it loads the record again. Without it a screen keeps what it showed (a mail
   * action, whose timestamps are set later when the SMTP server accepts the mail). On a list action: it changes
   * the rows it covers, and the overview reads its page again afterwards (Export Payments marks them exported).
   */
  changesRecord?: boolean;
  /** The least role that may run it (spec §6). */
  level: Level;
  /** The views (view keys) that offer it; every view of the resource when absent. */
  views?: readonly string[];
  /**
   * Null when the action is offered on this record, otherwise the reason it is not (answered with 409 and
   * shown as the disabled button's tooltip). Given the input when there is one: the status action is offered
   * from a status only towards the statuses the table allows.
   */
  offeredWhen?: (row: ActionRow, input?: z.output<Input>) => string | null;
  /**
   * Buttons that run the action with a fixed input (the status actions: one button per target status). A
   * variant is shown only where `offeredWhen(row, variant.input)` allows it.
   */
  variants?: readonly { label: string; input: z.input<Input> }[];
  /**
   * The variants as buttons of their own, each disabled with its reason (an invoice's Send Email and Send
   * Reminder, spec §2), rather than one menu of those offered now (the many status changes of a contract).
   */
  variantButtons?: boolean;
  /** A record action also offered on a selection, as a batch run under this label. */
  batch?: {
    label: string;
    preview?: boolean;
    confirm?: string;
    /**
     * Its rows take numbers (invoice, payment numbers): a run does them strictly one after another in row order,
     * so the numbers go to the rows as its preview showed them (decision 051).
     */
    inOrder?: boolean;
    /** Several Batch menu entries running the action with a fixed input (Send Email, Send Email Reminder). */
    variants?: readonly { label: string; input: z.input<Input> }[];
  };
  /** A confirm dialog comes first, with this question. */
  confirm?: string;
  /**
   * When the record says the action was done before (an invoice e-mailed, a reminder sent), what was done and
   * its timestamp: the web asks first, saying when ("This invoice was already e-mailed on 05-03-2026 10:30."),
   * so a second mail to a student is never sent by a slip.
   */
  doneBefore?: (row: ActionRow, input?: z.output<Input>) => { what: string; at: string } | null;
  /**
   * It queues a mail: the record's "sent" timestamp is set when the mail server accepts it, moments later, so a
   * screen showing the record reads it again shortly after (decision 052).
   */
  queuesMail?: boolean;
  /** A selection action shows a dry-run preview before it changes anything. */
  preview?: boolean;
  /**
   * The action overwrites fields the client saw (Bulk Edit): the caller must send the version of each record
   * it read (If-Match for a record, `versions` for a selection), or it is refused with a 428.
   */
  versioned?: boolean;
  /** The path the spec names for its batch run (`POST /scholarship_payments/create_payments`), beside `/batch/{name}`. */
  batchPath?: `POST /${string}`;
  /** The path the spec names for it, kept valid beside the derived one (`PUT /contracts/:id/update_status`). */
  specPath?: `${'PUT' | 'POST'} /${string}`;
  /**
   * A list action that works on neither the selection nor the overview's filter (a period's check, the file of
   * the last export): the web sends it only its own input.
   */
  selectionless?: boolean;
  /**
   * Its confirm says what it would do before it does it (Export Payments: how many, how much): the web posts the
   * action's body to this path when the dialog opens and shows the answer's `message` (decision 055).
   */
  summaryPath?: `/${string}`;
  /** File actions: the name the web saves the file under when the server gives none. */
  filename?: string;
  upload?: UploadSpec;
  /** What the spec's error catalogue calls it: a failure shows `Server error while {failureText}`. */
  failureText?: string;
}

export function defineAction<Input extends z.ZodObject>(action: ActionDescriptor<Input>): ActionDescriptor<Input> {
  return action;
}

export type AnyAction = ActionDescriptor<z.ZodObject>;

/** The path of an action under /api/v1.0, Express-style (`/contracts/:id/mark_sent`, `/contracts/batch/mark_sent`). */
export function actionPath(apiPath: string, action: Pick<AnyAction, 'name' | 'scope'>, as: 'record' | 'batch' | 'list'): string {
  if (as === 'record') return `/${apiPath}/:id/${action.name}`;
  if (as === 'batch') return `/${apiPath}/batch/${action.name}`;
  return `/${apiPath}/${action.name}`;
}

/** Whether an action runs on a selection as a batch run. */
export function runsAsBatch(action: Pick<AnyAction, 'scope' | 'batch'>): boolean {
  return action.scope === 'selection' || (action.scope === 'record' && action.batch !== undefined);
}

/** Why an action is not offered on a record (null: it is). */
export function whyNotOffered(action: Pick<AnyAction, 'offeredWhen'>, row: ActionRow, input?: unknown): string | null {
  return action.offeredWhen ? action.offeredWhen(row, input as never) : null;
}

/**
 * The label of a batch run: the batch variant whose fixed input the run's input has, else the batch label of a
 * record action, else the action's label.
 */
export function batchLabelOf(action: Pick<AnyAction, 'batch' | 'label'>, input: Record<string, unknown> = {}): string {
  const variant = action.batch?.variants?.find((v) => Object.entries(v.input as Record<string, unknown>).every(([k, value]) => input[k] === value));
  return variant?.label ?? action.batch?.label ?? action.label;
}

/** Most rows one batch run takes. */
/**
 * The header of a file answer that carries a message for the user beside the file (URI-encoded text): an export
 * that left rows out says which and why. The web shows it after saving the file.
 */
export const FILE_MESSAGE_HEADER = 'X-Message';

/**
 * The id of the user a page shows, sent by the web with every call: a call whose session is another user's (logged
 * in since in another tab) is refused, never made in their name (decision 060).
 */
export const SHOWN_USER_HEADER = 'X-User-Id';

/** The header of a creating request the API does once per user and key (decision 050; the IETF draft's name). */
export const REQUEST_KEY_HEADER = 'Idempotency-Key';

export const MAX_BATCH_ROWS = 2000;

/**
 * The body of `POST /{resource}/batch/{action}`: the selected ids, whether only to preview, the version
 * (edit_timestamp) of each row as the client saw it, plus the action's own input fields.
 */
export function batchRequestSchema<Input extends z.ZodObject>(input: Input) {
  return input.strict().extend({
    ids: z
      .array(z.number({ error: 'ids must be record ids' }).int().positive().max(INT4_MAX, 'ids must be record ids'), { error: 'ids must be a list of record ids' })
      .min(1, 'Select at least one row')
      .max(MAX_BATCH_ROWS, `At most ${MAX_BATCH_ROWS} rows at once`),
    dry_run: z.boolean().optional(),
    /** Row id → the edit_timestamp the client saw: a row changed since is refused, not overwritten. */
    versions: z.record(z.string().max(20), z.string().max(100)).optional(),
  });
}
