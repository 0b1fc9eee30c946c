import type { z } from 'zod';
import type { AnyResource } from '@app/contracts';

/**
 * Field kinds of the detail screens (spec §2 "Detail screens"). Issue 2 needs text; date, money, boolean,
 * select, textarea, password, email and phone are added to `fieldKinds` as their resources arrive.
 */
export type FieldKind = 'text';

/** One field of a detail screen, declared per resource (`<resource>.fields.tsx`). */
export interface FieldDef<Name extends string = string> {
  /** The row field (wire and database name, spec §3). */
  name: Name;
  label: string;
  kind: FieldKind;
  /** Never editable (true), or editable only while the record is new ('afterCreate'). */
  readOnly?: boolean | 'afterCreate';
  /** The value of a new record; otherwise the kind's empty value. */
  defaultValue?: unknown;
  description?: string;
  placeholder?: string;
  /** Columns of the two-column form grid the field spans. */
  span?: 1 | 2;
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
}

/** Typed field declarations of a resource: `name` must be a field of its row or create schema. */
export function defineFields<D extends AnyResource>(
  _descriptor: D,
  fields: FieldDef<Extract<keyof z.infer<D['schema']> | keyof z.input<D['createSchema']>, string>>[],
): FieldDef[] {
  return fields;
}
