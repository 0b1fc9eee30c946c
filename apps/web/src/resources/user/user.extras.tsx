import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { z } from 'zod';
import { PasswordSchema, userResource, type User } from '@app/contracts';
import { api, ApiError } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { queryKeys, refreshAfterWrite } from '../../lib/query-keys';
import type { Detail } from '../../machinery/detail/use-detail';

/** The password rules of the contract (length), checked before anything is sent; the repeat is compared on submit. */
const passwordRules = schemaResolver(z.object({ password: PasswordSchema }), { sync: true });

/** `version` is the edit_timestamp of the user record on screen, sent back in If-Match like every update. */
function SetPasswordDialog({ userId, version, onClose }: { userId: number; version: string; onClose: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', repeat: '' },
    validate: passwordRules,
  });
  const alerts = useAlerts();
  const queryClient = useQueryClient();

  const mutation = useMutation({
    mutationFn: (usr_login_password: string) =>
      api.put<User>(`/${userResource.apiPath}/${userId}`, { id: userId, usr_login_password }, { headers: { 'If-Match': version } }),
    onSuccess: async (row) => {
      onClose();
      alerts.showSuccess('Password set');
      // The record's edit_timestamp moved on: a later edit must not look stale.
      if (row) queryClient.setQueryData(queryKeys.detail(userResource.key, userId), row);
      await refreshAfterWrite(queryClient, userResource.key);
    },
    onError: (e) => {
      const fieldMessage = e instanceof ApiError && e.isValidation ? e.errors.usr_login_password?.[0] : undefined;
      if (fieldMessage) {
        form.setFieldError('password', fieldMessage);
        return;
      }
      onClose();
      alerts.showFailure(e, 'setting the password');
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { password, repeat } = form.getValues();
    // Spec §5: differing entries show the message and cancel, before any other check; nothing is sent.
    if (password !== repeat) {
      onClose();
      alerts.showError('Passwords do not match');
      return;
    }
    if (!form.validate().hasErrors) mutation.mutate(password);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Set Password">
      <Stack gap="sm">
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          {...form.getInputProps('password')}
          visibilityToggleButtonProps={{ title: 'Show the new password' }}
          data-autofocus
        />
        <PasswordInput
          label="Repeat password"
          autoComplete="new-password"
          {...form.getInputProps('repeat')}
          visibilityToggleButtonProps={{ title: 'Show the repeated password' }}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={form.values.password === '' || form.values.repeat === ''} loading={mutation.isPending}>
            Set Password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Set Password on the read-only user page (spec §2 "User detail", §6): administrators (and developers) for
 * any user, everyone else for their own account only.
 */
export function SetPasswordButton({ detail }: { detail: Detail }) {
  const { user, hasLevel } = useAuth();
  const [opened, setOpened] = useState(false);
  const { record, mode } = detail;
  if (mode !== 'read' || !record || detail.lockedBy) return null;
  const userId = Number(record.id);
  if (!hasLevel(userResource.access.write) && userId !== user?.id) return null;
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>
        Set Password
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Set Password" centered size="sm">
        {opened && <SetPasswordDialog userId={userId} version={String(record.edit_timestamp)} onClose={() => setOpened(false)} />}
      </Modal>
    </>
  );
}
