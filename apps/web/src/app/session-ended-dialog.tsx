import { useState } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useAlerts } from '../lib/alerts';
import { ApiError } from '../lib/api-client';
import { useAuth } from '../lib/auth';

/**
 * The session ended (it expired, or a Logout in another tab ended it) while this screen held unsaved changes
 * (decision 061). The screen stays behind the dialog with everything typed; logging in again as the same user
 * closes the dialog, and Save works again. The other way out gives the changes up and shows the login screen.
 * Unlike the login screen, a failed login says why: the user knows who they are, and needs to know what to do.
 */
export function SessionEndedDialog() {
  const { sessionEnded, user, resumeSession, discardSession } = useAuth();
  const form = useForm({ mode: 'controlled', initialValues: { password: '' } });
  const [failure, setFailure] = useState<ApiError>();
  const { showSuccess } = useAlerts();

  const onSubmit = form.onSubmit(async ({ password }) => {
    if (!password || form.submitting) return;
    try {
      await resumeSession(password);
      setFailure(undefined);
      form.reset();
      showSuccess('Logged in again. Your changes are still here: save them when you are ready.');
    } catch (error) {
      setFailure(error instanceof ApiError ? error : new ApiError(0, 'The server could not be reached'));
      form.setFieldValue('password', '');
      form.getInputNode('password')?.focus();
    }
  });

  if (!user) return null;
  return (
    <Modal opened={sessionEnded} onClose={() => undefined} withCloseButton={false} closeOnEscape={false} closeOnClickOutside={false} title="Your session has ended" centered size="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            You are no longer logged in: the session expired, or it was ended in another tab. Your changes on this screen are not saved yet, and they are still
            here. Log in again as <strong>{user.usr_login_name}</strong> to go on, then save them.
          </Text>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            data-autofocus
            {...form.getInputProps('password')}
            visibilityToggleButtonProps={{ 'aria-label': 'Show typed characters' }}
          />
          {failure && (
            <Alert color="red" variant="light" role="alert" title="Not logged in">
              <Text size="sm">{failure.message}</Text>
              {/* The server answers a disabled account as a wrong password (it tells no one which logins exist);
                  the user here knows their password, so the other reason is named. */}
              {failure.isUnauthenticated && (
                <Text size="sm" mt={4}>
                  If the password is right, your account may have been disabled: ask an administrator.
                </Text>
              )}
            </Alert>
          )}
          <Group justify="space-between" mt="xs">
            <Button variant="subtle" color="red" onClick={discardSession}>
              Log out without saving
            </Button>
            <Button type="submit" disabled={!form.values.password} loading={form.submitting}>
              Log in
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
