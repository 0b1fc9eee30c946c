import { useEffect, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Group, NumberInput, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  EmailConfigUpdateSchema,
  SMTP_SECURITY,
  SMTP_SECURITY_LABELS,
  uiPermissions,
  type EmailConfig,
  type SmtpSecurity,
} from '@app/contracts';
import { api, ApiError } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { RequireLevel } from '../../lib/auth-guards';
import { SettingsLoader, useReportChanges } from './settings-loader';

const EMAIL_CONFIG_KEY = ['config', 'email'] as const;
const PATH = '/config/email';

interface FormValues {
  smtp_servername: string;
  smtp_port: number | string;
  smtp_security: SmtpSecurity;
  smtp_username: string;
  smtp_password: string;
  from_email_address: string;
  test_email_address: string;
}

const valuesOf = (c: EmailConfig): FormValues => ({
  smtp_servername: c.smtp_servername,
  smtp_port: c.smtp_port,
  smtp_security: c.smtp_security,
  smtp_username: c.smtp_username,
  // Write-only: the stored password is never sent to the browser; an empty field keeps it.
  smtp_password: '',
  from_email_address: c.from_email_address,
  test_email_address: c.test_email_address ?? '',
});

/** What PUT sends: the contract's schema checks the same values in the form (spec §5) and on the server. */
const bodyOf = (v: FormValues) => ({
  ...v,
  smtp_port: typeof v.smtp_port === 'number' ? v.smtp_port : v.smtp_port === '' ? undefined : Number(v.smtp_port),
  smtp_password: v.smtp_password === '' ? null : v.smtp_password,
});

const resolver = schemaResolver(EmailConfigUpdateSchema, { sync: true });

/** The form, for a Developer (the route answers 403 to anyone else). */
function EmailSettingsForm({ config, onDirtyChange }: { config: EmailConfig; onDirtyChange?: (dirty: boolean) => void }) {
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: valuesOf(config),
    validate: (values) => resolver(bodyOf(values) as unknown as FormValues),
  });
  const { setInitialValues, setValues } = form;
  useEffect(() => {
    setInitialValues(valuesOf(config));
    setValues(valuesOf(config));
    // The form follows the stored settings whenever they change (after a save, or a refetch).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config.edit_timestamp]);

  const save = useMutation({
    mutationFn: (values: FormValues) => api.put<EmailConfig>(`${PATH}/`, bodyOf(values), { headers: { 'If-Match': config.edit_timestamp } }),
    onSuccess: (saved) => {
      queryClient.setQueryData(EMAIL_CONFIG_KEY, saved);
      alerts.showSuccess('Email settings saved');
    },
    onError: (e) => {
      if (e instanceof ApiError && e.isValidation && Object.keys(e.errors).length > 0) {
        form.setErrors(Object.fromEntries(Object.entries(e.errors).map(([field, messages]) => [field, messages[0]])));
        return;
      }
      alerts.showFailure(e, 'saving update');
    },
  });

  const sendTest = useMutation({
    mutationFn: () => api.post<{ message: string; outbox_id: number }>(`${PATH}/send_test`, {}),
    onSuccess: (answer) => alerts.showSuccess(answer?.message ?? 'Test mail queued'),
    onError: (e) => {
      if (e instanceof ApiError && e.isValidation) {
        alerts.showError(e.message);
        return;
      }
      alerts.showFailure(e, 'sending email');
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.validate().hasErrors) save.mutate(form.getValues());
  };

  const dirty = form.isDirty();
  useReportChanges(dirty, onDirtyChange);
  return (
    <form onSubmit={submit} noValidate aria-label="Email settings">
      <Stack gap="sm" maw={720}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="SMTP server" required {...form.getInputProps('smtp_servername')} key={form.key('smtp_servername')} />
          <NumberInput label="SMTP port" required min={1} max={65535} allowDecimal={false} {...form.getInputProps('smtp_port')} key={form.key('smtp_port')} />
          <Select
            label="Security"
            data={SMTP_SECURITY.map((s) => ({ value: s, label: SMTP_SECURITY_LABELS[s] }))}
            allowDeselect={false}
            {...form.getInputProps('smtp_security')}
            key={form.key('smtp_security')}
          />
          <TextInput label="User name" autoComplete="off" {...form.getInputProps('smtp_username')} key={form.key('smtp_username')} />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description={config.smtp_password_set ? 'A password is stored: leave empty to keep it' : 'No password stored'}
            placeholder={config.smtp_password_set ? '••••••••' : undefined}
            {...form.getInputProps('smtp_password')}
            key={form.key('smtp_password')}
          />
          <TextInput label="From address" type="email" required {...form.getInputProps('from_email_address')} key={form.key('from_email_address')} />
          {/* Not a setting of this screen: the server's environment gives every mail its Reply-To (decision 070). */}
          <TextInput
            label="Reply-To address"
            readOnly
            variant="filled"
            value={config.reply_to_address ?? 'none'}
            description={
              config.reply_to_address
                ? 'Set by the server\'s environment (OFFICE_EMAIL), not here: replies to every mail go to it'
                : 'Set by the server\'s environment (OFFICE_EMAIL), not here: none, so replies go to the From address'
            }
          />
          <TextInput label="Test address" type="email" {...form.getInputProps('test_email_address')} key={form.key('test_email_address')} />
        </SimpleGrid>
        <Group gap="xs">
          <Button type="submit" loading={save.isPending} disabled={!dirty || save.isPending}>
            Save
          </Button>
          <Button
            variant="default"
            onClick={() => sendTest.mutate()}
            loading={sendTest.isPending}
            disabled={dirty || !config.test_email_address || sendTest.isPending}
            title={dirty ? 'Save the settings first' : !config.test_email_address ? 'Save a test address first' : undefined}
          >
            Send test mail
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          The test mail goes through the Outbox like every other mail: its delivery shows there.
        </Text>
      </Stack>
    </form>
  );
}

/**
 * The Email tab of the configuration screen (issue 12, spec §2, §5, §6): the SMTP settings the outbox delivers
 * through, for Developers only. The password is write-only: the screen only says whether one is stored.
 */
export function EmailSettings({ onDirtyChange }: { onDirtyChange?: (dirty: boolean) => void }) {
  return (
    <RequireLevel level={uiPermissions['config.email']}>
      <SettingsLoader<EmailConfig> queryKey={EMAIL_CONFIG_KEY} path={PATH} name="Email">
        {(config) => <EmailSettingsForm config={config} onDirtyChange={onDirtyChange} />}
      </SettingsLoader>
    </RequireLevel>
  );
}

export default EmailSettings;
