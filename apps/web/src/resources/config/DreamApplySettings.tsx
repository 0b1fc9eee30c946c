import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { apiPermissions, type DreamApplyConfig } from '@app/contracts';
import { api, ApiError } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { RequireLevel } from '../../lib/auth-guards';
import { SettingsLoader, useReportChanges } from './settings-loader';

const KEY = ['config', 'dream_apply'] as const;
const PATH = '/config/dream_apply';

/** The form: the base URL, and a new key (write-only: the screen only says whether one is stored). */
function DreamApplyForm({ config, onDirtyChange }: { config: DreamApplyConfig; onDirtyChange?: (dirty: boolean) => void }) {
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const form = useForm({ mode: 'controlled', initialValues: { base_url: config.base_url, api_key: '' } });
  const save = useMutation({
    mutationFn: (values: typeof form.values) => api.put<DreamApplyConfig>(PATH, { base_url: values.base_url, api_key: values.api_key === '' ? null : values.api_key }),
    onSuccess: (saved) => {
      queryClient.setQueryData(KEY, saved);
      // The saved values are the form's new start: the key field empties again (write-only).
      form.setInitialValues({ base_url: saved.base_url, api_key: '' });
      form.setValues({ base_url: saved.base_url, api_key: '' });
      alerts.showSuccess('DreamApply settings saved');
    },
    onError: (e) => {
      if (e instanceof ApiError && e.isValidation && Object.keys(e.errors).length > 0) {
        form.setErrors(Object.fromEntries(Object.entries(e.errors).map(([field, messages]) => [field, messages[0] ?? ''])));
        return;
      }
      alerts.showFailure(e, 'saving update');
    },
  });
  const dirty = form.isDirty();
  useReportChanges(dirty, onDirtyChange);
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate aria-label="DreamApply settings">
      <Stack gap="sm" maw={720}>
        <TextInput label="Base URL" required placeholder="https://instance.dreamapply.com/api/" {...form.getInputProps('base_url')} />
        <PasswordInput
          label="API key"
          autoComplete="new-password"
          description={config.api_key_set ? 'A key is stored: leave empty to keep it' : 'No key stored'}
          placeholder={config.api_key_set ? '••••••••' : undefined}
          {...form.getInputProps('api_key')}
        />
        <div>
          <Button type="submit" loading={save.isPending} disabled={!dirty || save.isPending}>
            Save
          </Button>
        </div>
      </Stack>
    </form>
  );
}

/** The DreamApply tab of the configuration screen (issue 16): where the import reads from, for Developers only. */
export function DreamApplySettings({ onDirtyChange }: { onDirtyChange?: (dirty: boolean) => void }) {
  return (
    <RequireLevel level={apiPermissions['GET /config/dream_apply'] as 'developer'}>
      <SettingsLoader<DreamApplyConfig> queryKey={KEY} path={PATH} name="DreamApply">
        {(config) => <DreamApplyForm config={config} onDirtyChange={onDirtyChange} />}
      </SettingsLoader>
    </RequireLevel>
  );
}
