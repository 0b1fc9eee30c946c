import type { FormEvent, ReactNode } from 'react';
import { Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { z } from 'zod';
import { Field } from '../fields/field';
import { fieldKinds } from '../fields/field-kinds';
import { isRequiredSchema } from '../fields/required';
import { emptiedByNarrowing, fieldFor, type FieldDef } from '../fields/types';
import { kindError, toFormValue, toWireValue } from '../fields/values';
import { useReturnFocus } from '../../lib/focus';
import { useUnsavedChanges } from '../../lib/unsaved-changes';

export interface InputDialogProps {
  title: string;
  /** What the dialog says above its fields (the question of a confirm dialog). */
  text?: ReactNode;
  fields: readonly FieldDef[];
  /**
   * The record the action runs on: a field narrowed by it (`choiceParamsFor`: the registration fees of the
   * invoice's contract) is given it, with the dialog's values over it.
   */
  record?: Readonly<Record<string, unknown>>;
  /** The rules of the input: checked before anything is sent, each message on its field. */
  schema: z.ZodType;
  /** The input sent, from the fields' wire values (left out when empty). */
  toInput?: (wire: Record<string, unknown>) => Record<string, unknown>;
  /** Where the schema's paths differ from the field names (`changes.start_date` → `start_date`). */
  fieldOfPath?: (path: readonly PropertyKey[]) => string | undefined;
  submitLabel: string;
  /** Values the fields start with (the spec's defaults, such as the DreamApply import's academic year 2021). */
  initialValues?: Record<string, unknown>;
  /** Keeps the button disabled until a field is filled (spec §5: a bulk edit sends nothing unchanged). */
  requireChange?: boolean;
  pending: boolean;
  onSubmit: (input: Record<string, unknown>) => void;
  onClose: () => void;
}

const filled = (wire: Record<string, unknown>) => Object.fromEntries(Object.entries(wire).filter(([, v]) => v !== null && v !== undefined));

/**
 * The fields the input schema requires (spec §2: an asterisk, and no clear button): its own schema for the field
 * takes no empty value. A schema whose paths are not the field names (`changes.…` of Bulk Edit) requires none.
 */
function requiredFields(schema: z.ZodType, fields: readonly FieldDef[]): Set<string> {
  const shape = 'shape' in schema ? (schema.shape as Record<string, z.ZodType | undefined>) : {};
  return new Set(fields.filter((def) => Object.hasOwn(shape, def.name) && isRequiredSchema(shape[def.name])).map((def) => def.name));
}

/**
 * The dialog of an action that asks something first (CONVENTIONS "Actions"): its fields drawn by the field
 * kinds of the detail screens, its input checked with the action's own zod schema (the API checks the same),
 * and a button that stays disabled until the input is valid.
 */
export function InputDialog(props: InputDialogProps) {
  useReturnFocus();
  const { fields, schema, onClose } = props;
  const form = useForm<Record<string, unknown>>({
    mode: 'controlled',
    initialValues: Object.fromEntries(fields.map((def) => [def.name, toFormValue(def, props.initialValues?.[def.name] ?? null)])),
  });
  const wire = filled(Object.fromEntries(fields.map((def) => [def.name, toWireValue(def, form.values[def.name])])));
  const input = props.toInput ? props.toInput(wire) : wire;
  const typos = Object.fromEntries(fields.map((def) => [def.name, kindError(def, form.values[def.name])]).filter(([, e]) => e));
  const checked = schema.safeParse(input);
  const errors: Record<string, string> = { ...typos };
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const name = props.fieldOfPath ? props.fieldOfPath(issue.path) : String(issue.path[0] ?? '');
      if (name && fields.some((f) => f.name === name) && !errors[name]) errors[name] = issue.message;
    }
  }
  const changed = Object.keys(wire).length > 0;
  const required = requiredFields(schema, fields);
  // Once something was typed, a click beside the dialog or Escape no longer throws it away: Cancel does.
  const typed = form.isDirty();
  // What was typed counts as unsaved: Logout asks first, and an ended session asks for a login over it (decision 061).
  useUnsavedChanges(typed);
  const valid = checked.success && Object.keys(typos).length === 0;
  const record = props.record ?? {};

  const setValue = (name: string, value: unknown) => {
    const before = { ...record, ...form.getValues() };
    form.setFieldValue(name, value);
    // A select the change narrows otherwise lets go of the value it held (as on the detail screens).
    for (const def of emptiedByNarrowing(fields, before, { ...before, [name]: value })) form.setFieldValue(def.name, toFormValue(def, null));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (valid && (changed || !props.requireChange)) props.onSubmit(checked.data as Record<string, unknown>);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={props.title}
      centered
      size={fields.length > 2 ? 'lg' : 'md'}
      closeOnClickOutside={!typed && !props.pending}
      closeOnEscape={!typed && !props.pending}
    >
      <form onSubmit={submit} noValidate aria-label={props.title}>
        <Stack gap="sm">
          {props.text && <Text size="sm">{props.text}</Text>}
          {fields.length > 0 && (
            <SimpleGrid cols={{ base: 1, sm: fields.length > 2 ? 2 : 1 }} spacing="md" verticalSpacing="sm">
              {fields.map((def, index) => (
                <Field
                  key={def.name}
                  autoFocus={index === 0 && !fieldKinds[def.kind].opensOnFocus}
                  def={fieldFor(def, record, { ...record, ...form.values })}
                  value={form.values[def.name]}
                  onChange={(v) => setValue(def.name, v)}
                  // An empty field is not an error until the user touched it.
                  error={form.isTouched(def.name) || form.values[def.name] !== toFormValue(def, null) ? errors[def.name] : undefined}
                  required={required.has(def.name)}
                  readOnly={false}
                />
              ))}
            </SimpleGrid>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={props.pending}>
              Cancel
            </Button>
            <Button type="submit" loading={props.pending} disabled={!valid || (props.requireChange === true && !changed)}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
