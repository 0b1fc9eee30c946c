import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { apiPermissions, CONTRACT_BULK_FIELDS, ContractBulkEditSchema, contractResource } from '@app/contracts';
import { api } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { refreshAfterWrite } from '../../lib/query-keys';
import { Field } from '../../machinery/fields/field';
import type { FieldDef } from '../../machinery/fields/types';
import { toFormValue, toWireValue } from '../../machinery/fields/values';
import type { Overview } from '../../machinery/overview/use-overview';

type BulkField = (typeof CONTRACT_BULK_FIELDS)[number];

const UNCHANGED = 'Unchanged';

/**
 * The inputs of the six bulk-editable fields (spec §2 "Contract overview extras"). Every one starts empty,
 * meaning "unchanged": the two flags are Yes / No / empty, so that "unchanged" differs from "No".
 */
const inputs: Record<BulkField, Omit<FieldDef<BulkField>, 'name'>> = {
  contract_status_date: { label: 'Status date', kind: 'date' },
  year1_finished: { label: 'Year 1 finished', kind: 'boolean', allowEmpty: true },
  y2_university_id: { label: 'University Y2', kind: 'select', choices: 'universities' },
  year2_finished: { label: 'Year 2 finished', kind: 'boolean', allowEmpty: true },
  start_date: { label: 'Start date', kind: 'date', description: 'Moves the end date with it' },
  contract_sent_date: { label: 'Contract sent date', kind: 'date' },
};

export const bulkEditFields: readonly FieldDef[] = CONTRACT_BULK_FIELDS.map((name) => ({ name, placeholder: UNCHANGED, ...inputs[name] }));

const emptyValues = () => Object.fromEntries(bulkEditFields.map((def) => [def.name, toFormValue(def, null)]));

/** The fields the user set, as they are sent; empty inputs are left out. */
export function bulkChanges(values: Record<string, unknown>): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const def of bulkEditFields) {
    const wire = toWireValue(def, values[def.name]);
    if (wire !== null && wire !== undefined) changes[def.name] = wire;
  }
  return changes;
}

/**
 * The schema's messages for what would be sent: on their field, or under `ids` / `changes` for the selection or
 * the change as a whole (shown as alerts). Nothing set means nothing is sent, so nothing is checked either.
 */
function bulkErrors(ids: number[], changes: Record<string, unknown>): FormErrors {
  if (Object.keys(changes).length === 0) return {};
  const checked = ContractBulkEditSchema.safeParse({ ids, changes });
  const errors: Record<string, string> = {};
  for (const issue of checked.error?.issues ?? []) {
    const [first, second] = issue.path;
    const key = first === 'changes' && second !== undefined ? String(second) : String(first ?? '');
    errors[key] ??= issue.message;
  }
  return errors;
}

const isBulkField = (key: string) => bulkEditFields.some((def) => def.name === key);

function BulkEditForm({ overview, onClose }: { overview: Overview<typeof contractResource>; onClose: () => void }) {
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const ids = overview.selection.ids.map(Number);
  const form = useForm<Record<string, unknown>>({
    mode: 'controlled',
    initialValues: emptyValues(),
    validate: (values) => bulkErrors(ids, bulkChanges(values)),
  });

  const mutation = useMutation({
    mutationFn: (body: { ids: number[]; changes: Record<string, unknown> }) =>
      api.post<{ updated: number }>(`/${contractResource.apiPath}/bulk_edit`, body),
    onSuccess: async ({ updated }) => {
      onClose();
      alerts.showSuccess(`Bulk Edit: ${updated} of ${ids.length} contracts changed`);
      overview.clearSelection();
      await refreshAfterWrite(queryClient, contractResource.key);
    },
    onError: (error) => {
      onClose();
      alerts.showFailure(error, 'bulk editing the contracts');
    },
  });

  const submit = form.onSubmit(
    (values) => {
      const changes = bulkChanges(values);
      // Spec §5: nothing changed, nothing sent.
      if (Object.keys(changes).length === 0) onClose();
      else mutation.mutate({ ids, changes });
    },
    (errors) => {
      for (const [key, message] of Object.entries(errors)) if (!isBulkField(key)) alerts.showError(String(message));
    },
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Bulk Edit">
      <Stack gap="sm">
        <Text size="sm">
          Changes the {ids.length} selected contracts. Fields left empty stay unchanged.
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          {bulkEditFields.map((def) => (
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
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={mutation.isPending}>
            Apply
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Bulk Edit of the selected contracts: for Administrators and above, only with a selection. */
export function BulkEditButton({ overview }: { overview: Overview<typeof contractResource> }) {
  const { mayCall } = useAuth();
  const [opened, setOpened] = useState(false);
  if (!mayCall(apiPermissions['POST /contracts/bulk_edit']) || (overview.selection.count === 0 && !opened)) return null;
  return (
    <>
      <Button variant="default" size="sm" onClick={() => setOpened(true)}>
        Bulk Edit
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Bulk Edit" centered size="lg">
        {opened && <BulkEditForm overview={overview} onClose={() => setOpened(false)} />}
      </Modal>
    </>
  );
}
