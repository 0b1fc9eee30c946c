import type { KeyboardEvent } from 'react';
import { Button, Group, Paper, SimpleGrid } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import type { AnyResource } from '@app/contracts';
import { Field } from '../fields/field';
import type { FieldDef } from '../fields/types';
import { filterFormValues, filterParams, kindError } from '../fields/values';
import type { Overview } from './use-overview';

/** The filter field a parameter belongs to (`le_time_from` → the date range `le_time`). */
function fieldOfParam(fields: readonly FieldDef[], param: string): FieldDef | undefined {
  return fields.find((f) => f.name === param || (f.kind === 'dateRange' && (param === `${f.name}_from` || param === `${f.name}_to`)));
}

/** The kinds' complaints (a range ending before it starts) first, then the filter schema's, on their fields. */
function filterErrors(fields: readonly FieldDef[], values: Record<string, unknown>, filterSchema: AnyResource['filterSchema']): FormErrors {
  const errors: Record<string, string> = {};
  for (const def of fields) {
    const message = kindError(def, values[def.name]);
    if (message) errors[def.name] = message;
  }
  const checked = filterSchema.safeParse(filterParams(fields, values));
  for (const issue of checked.error?.issues ?? []) {
    const def = fieldOfParam(fields, String(issue.path[0]));
    if (def) errors[def.name] ??= issue.message;
  }
  return errors;
}

/**
 * The advanced filter card of an overview (spec §2): the resource's declared filter fields, applied with
 * Filter or Enter in any field, cleared with Reset. The applied filters live in the overview state, so they
 * are remembered for the session; the inputs start from them.
 */
export function AdvancedFilterCard<D extends AnyResource>({ fields, overview }: { fields: readonly FieldDef[]; overview: Overview<D> }) {
  const form = useForm<Record<string, unknown>>({
    mode: 'controlled',
    initialValues: filterFormValues(fields, overview.filters),
    validate: (values) => filterErrors(fields, values, overview.descriptor.filterSchema),
  });

  const apply = form.onSubmit((values) => overview.setFilters(filterParams(fields, values)));

  const reset = () => {
    form.setValues(filterFormValues(fields, {}));
    form.clearErrors();
    overview.setFilters({});
  };

  // Enter in any filter field applies the filter, unless the field used it itself (choosing an option).
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' || e.defaultPrevented || e.nativeEvent.isComposing) return;
    const target = e.target as HTMLElement;
    if (target.tagName === 'TEXTAREA' || target.tagName === 'BUTTON') return;
    e.preventDefault();
    apply();
  };

  // A closed select would open its list on Enter; in the filter card Enter filters (Space and the arrows open it).
  const onKeyDownCapture = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    const target = e.target as HTMLElement;
    if (target.getAttribute('role') !== 'combobox' || target.getAttribute('aria-expanded') === 'true') return;
    e.preventDefault();
    e.stopPropagation();
    apply();
  };

  return (
    <Paper withBorder p="sm" radius="sm">
      <form aria-label="Advanced filter" onSubmit={apply} onKeyDown={onKeyDown} onKeyDownCapture={onKeyDownCapture} noValidate>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" verticalSpacing="xs">
          {fields.map((def) => (
            <Field
              key={def.name}
              def={def}
              value={form.values[def.name]}
              onChange={(v) => form.setFieldValue(def.name, v)}
              error={form.errors[def.name] as string | undefined}
              required={false}
              readOnly={false}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end" gap="xs" mt="sm">
          <Button variant="default" size="sm" onClick={reset}>
            Reset
          </Button>
          <Button type="submit" size="sm">
            Filter
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
