import type { z } from 'zod';
import type { AnyResource, ChoiceListName, FieldKind } from '@app/contracts';
import type { QueryValue } from '../../lib/api-client';

/**
 * Field kinds of the detail screens, filter cards and action dialogs (declared in packages/contracts, since
 * actions name them too): text, textarea (4 rows), password, email, phone, iban (shown in groups of four, sent
 * without spaces), number, money (euro, € 1.234,56, 2 decimals, step 0.01), date (picker shown as DD-MM-YYYY),
 * simple date (typed DD-MM-YYYY), date range (two dates), boolean (a checkbox, or Yes / No / empty with
 * `allowEmpty`) and select (options inline or from a choice list). Every kind sends dates as YYYY-MM-DD.
 */
export type { FieldKind };

/** One option of a select: the value is sent as it is (a number for ids, a text for a type name). */
export interface SelectOption {
  value: string | number | boolean;
  label: string;
}

/** One field of a detail screen or filter card, declared per resource (`<resource>.fields.tsx`, `.filters.tsx`). */
export interface FieldDef<Name extends string = string> {
  /** The row field (wire and database name, spec §3), or the query parameter of a filter. */
  name: Name;
  label: string;
  kind: FieldKind;
  /** Never editable (true), or editable only while the record is new ('afterCreate'). */
  readOnly?: boolean | 'afterCreate';
  /** The value of a new record; otherwise the create schema's default, otherwise the kind's empty value. */
  defaultValue?: unknown;
  description?: string;
  placeholder?: string;
  /** Columns of the two-column form grid the field spans. */
  span?: 1 | 2;
  /** The titled section of the detail form the field is drawn in (fields of a section are kept together). */
  group?: string;
  /** select: options given inline. */
  options?: readonly SelectOption[];
  /** select: options loaded from `GET /{choices}/choice`, cached by checksum. */
  choices?: ChoiceListName;
  /**
   * select: the choice list when it depends on the record (a credit note's document types are not an
   * invoice's), given the record a detail screen shows or, on a filter card, the view's fixed filter (what every
   * row the card filters has). It takes the place of `choices` (see `fieldFor`).
   */
  choicesFor?: (record: Readonly<Record<string, unknown>>) => ChoiceListName;
  /** select: fixed parameters of the choice list (`GET /{choices}/choice?…`). */
  choiceParams?: Record<string, QueryValue>;
  /**
   * select: parameters of the choice list that follow other fields (the invoices of the contract chosen):
   * given the values the field is drawn with — a form's current values, or in an action's dialog the record it
   * runs on with the dialog's values over it (see `fieldFor`). When a change of those values narrows the list
   * otherwise, the value held is emptied (see `emptiedByNarrowing`): it may not be one of the new options.
   */
  choiceParamsFor?: (values: Readonly<Record<string, unknown>>) => Record<string, QueryValue>;
  /** boolean: Yes / No / empty instead of a checkbox (filters, where empty means "either"). */
  allowEmpty?: boolean;
  /**
   * date: a day that cannot lie ahead in the office's calendar (a payment received): the calendar offers none
   * after today, and one typed is refused before it is sent, in the words the server would use.
   */
  notAfterToday?: boolean;
}

/**
 * The field as drawn for this record and these current values: a select whose choice list depends on the
 * record names that list, and one narrowed by other fields gets the parameters of their current values.
 */
export function fieldFor(def: FieldDef, record: Readonly<Record<string, unknown>>, values: Readonly<Record<string, unknown>> = record): FieldDef {
  let drawn = def;
  if (def.choicesFor) drawn = { ...drawn, choices: def.choicesFor(record) };
  if (def.choiceParamsFor) drawn = { ...drawn, choiceParams: { ...def.choiceParams, ...def.choiceParamsFor(values) } };
  return drawn;
}

const sameParams = (a: Record<string, QueryValue>, b: Record<string, QueryValue>) => {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  // An empty parameter is not sent: null, undefined and '' narrow nothing alike.
  const sent = (v: QueryValue) => (v === null || v === undefined || v === '' ? undefined : String(v));
  return [...keys].every((k) => sent(a[k]) === sent(b[k]));
};

const isEmpty = (v: unknown) => v === null || v === undefined || v === '';

/**
 * The selects a change empties (form values `before` → `after`): those narrowed by other fields
 * (`choiceParamsFor`) whose parameters it changes, unless the change sets the select itself. A staff user who
 * picks another contract expects the invoice of the old one to go, not to be refused on Save.
 */
export function emptiedByNarrowing(
  fields: readonly FieldDef[],
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): FieldDef[] {
  return fields.filter(
    (def) =>
      def.choiceParamsFor &&
      !isEmpty(after[def.name]) &&
      Object.is(before[def.name], after[def.name]) &&
      !sameParams(def.choiceParamsFor(before), def.choiceParamsFor(after)),
  );
}

/** The id a select holds as a query parameter (undefined when it holds none): `{ contract_id: idParam(v.contract_id) }`. */
export function idParam(value: unknown): number | undefined {
  return typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** The props every field-kind input gets. */
export interface FieldInputProps {
  def: FieldDef;
  /** The form value (the kind's own representation, e.g. '' for an empty text). */
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string | undefined;
  required: boolean;
  readOnly: boolean;
  /** The field a dialog focuses when it opens (Mantine's focus trap takes `data-autofocus`), not its close button. */
  autoFocus?: boolean;
}

type RowKeys<D extends AnyResource> = Extract<keyof z.infer<D['schema']> | keyof z.input<D['createSchema']>, string>;

/** Typed field declarations of a resource: `name` must be a field of its row or create schema. */
export function defineFields<D extends AnyResource>(_descriptor: D, fields: FieldDef<RowKeys<D>>[]): FieldDef[] {
  return fields;
}

type FilterKeys<D extends AnyResource> = Extract<keyof z.input<D['filterSchema']>, string>;
/** A date range `le_time` is sent as the two parameters `le_time_from` and `le_time_to`. */
type RangeNames<K extends string> = K extends `${infer Base}_from` ? Base : never;

/**
 * Typed advanced-filter declarations: `name` must be a parameter of the descriptor's filter schema (or, for a
 * date range, the common stem of its `_from` / `_to` parameters).
 */
export function defineFilters<D extends AnyResource>(
  _descriptor: D,
  fields: FieldDef<FilterKeys<D> | RangeNames<FilterKeys<D>>>[],
): FieldDef[] {
  return fields;
}
