import type { Response } from 'express';
import type { z } from 'zod';
import type { ActionDescriptor, EventTypeKey, FieldChanges } from '@app/contracts';
import type { Database, Tx } from '@app/db';
import type { AppContext } from '../context.js';
import type { UploadedFile } from '../files/upload.js';
import type { Actor, CrudService, Row } from '../crud/crud-service.js';
import type { ImportOutcome } from '../imports/outcome.js';

/** A file an action answers: bytes at hand, or written to the response as they come (a streamed export). */
export type FileResult =
  | { filename: string; contentType: string; content: Buffer }
  | { filename: string; contentType: string; write: (res: Response) => Promise<void> };


/** What an action did: the machinery records it in the event log and answers it. */
export interface ActionOutcome {
  /** The answer of a message action, and the event's message. */
  message?: string;
  /** The fields it changed, for the event (old → new). */
  changes?: FieldChanges;
  /** The event type (default `update`). */
  eventType?: EventTypeKey;
  /** The service wrote the event itself (an update through the generic service). */
  eventRecorded?: boolean;
  file?: FileResult;
  /** A figure the batch preview totals (the amount an invoice would have). */
  amount?: number | string;
  /** What the preview totals the amount by (a payment type). */
  group?: string;
}

/** The record an action runs on: locked for the action's transaction. */
export interface RecordTarget {
  id: number;
  row: Row;
  /** The version the caller saw (If-Match, or the batch row's), when it sent one. */
  version?: string;
  file?: UploadedFile;
}

export interface ActionEnv {
  ctx: AppContext;
  service: CrudService;
}

/** The one function that does a record action's work, inside its transaction (CONVENTIONS "Actions"). */
export type RecordActionFn<I = Record<string, unknown>> = (tx: Tx, actor: Actor, target: RecordTarget, input: I, env: ActionEnv) => Promise<ActionOutcome | void>;

/** A list action works on the resource as a whole (an export, an import): it opens what it needs itself. */
export type ListActionFn<I = Record<string, unknown>> = (db: Database, actor: Actor, input: I, env: ActionEnv) => Promise<ActionOutcome>;

/** One row of an import: the sheet's cells by column key (text, or null when empty), and how people find it again. */
export interface ImportRow {
  reference: string;
  values: Record<string, string | null>;
  /** Why the row is refused before it is tried (decided when the file was read: a repeat of an earlier row). */
  refusal?: string;
  /**
   * In a confirmed run: when its preview tried the row, and when the run started. A record the row changes that
   * someone else changed after the preview is not overwritten (decision 053).
   */
  seen?: { previewedAt: Date; runStartedAt: Date };
}

/** What an import read from its upload (or its source): the rows, the columns they came in, the name it answers. */
export interface ImportSource {
  filename: string;
  columns: readonly { key: string; title: string }[];
  rows: readonly ImportRow[];
  /** What the preview says about the file as a whole (columns not imported). */
  notes?: string[];
}

/** Reads an import's upload (or its remote source) into rows; a file that cannot be read is a 400 naming `file`. */
export type ImportReadFn<I = Record<string, unknown>> = (actor: Actor, input: I, file: UploadedFile | undefined, env: ActionEnv) => Promise<ImportSource>;

/**
 * Does one row of an import inside the row's transaction (a savepoint that a preview rolls back), and says what it
 * created and changed (the batch worker words it: "Will create …" in a preview, "Created …" in the run); a refused
 * row throws with the reason naming the column.
 */
export type ImportRowFn = (tx: Tx, actor: Actor, row: ImportRow, env: ActionEnv) => Promise<ImportOutcome>;

export type ActionImpl =
  | { kind: 'record'; run: RecordActionFn<never> }
  | { kind: 'list'; run: ListActionFn<never> }
  | { kind: 'import'; read: ImportReadFn<never>; row: ImportRowFn };

/** Binds a record action's declaration to its service function, with the input typed by its schema. */
export function recordAction<I extends z.ZodObject>(action: ActionDescriptor<I>, run: RecordActionFn<z.output<I>>): [string, ActionImpl] {
  return [action.name, { kind: 'record', run: run as RecordActionFn<never> }];
}

export function listAction<I extends z.ZodObject>(action: ActionDescriptor<I>, run: ListActionFn<z.output<I>>): [string, ActionImpl] {
  return [action.name, { kind: 'list', run: run as ListActionFn<never> }];
}

/** Binds an import (a list action done row by row as a batch run with a preview) to its reader and its row function. */
export function importAction<I extends z.ZodObject>(action: ActionDescriptor<I>, read: ImportReadFn<z.output<I>>, row: ImportRowFn): [string, ActionImpl] {
  return [action.name, { kind: 'import', read: read as ImportReadFn<never>, row }];
}
