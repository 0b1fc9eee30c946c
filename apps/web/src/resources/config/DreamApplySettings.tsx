import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Loader, PasswordInput, Stack, TextInput } from '@mantine/core';
import { apiPermissions, type DreamApplyConfig } from '@app/contracts';
import { api, ApiError } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { RequireLevel } from '../../lib/auth-guards';

const KEY = ['config', 'dream_apply'] as const;
const PATH = '/config/dream_apply';

/** The form: the base URL, and a new key (write-only: the screen only says whether one is stored). */
function DreamApplyForm({ config }: { config: DreamApplyConfig }) {
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  const [baseUrl, setBaseUrl] = useState(config.base_url);
  const [apiKey, setApiKey] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: () => api.put<DreamApplyConfig>(PATH, { base_url: baseUrl, api_key: apiKey === '' ? null : apiKey }),
    onSuccess: (saved) => {
      queryClient.setQueryData(KEY, saved);
      setApiKey('');
      setErrors({});
      alerts.showSuccess('DreamApply settings saved');
    },
    onError: (e) => {
      if (e instanceof ApiError && e.isValidation && Object.keys(e.errors).length > 0) {
        setErrors(Object.fromEntries(Object.entries(e.errors).map(([field, messages]) => [field, messages[0] ?? ''])));
        return;
      }
      alerts.showFailure(e, 'saving update');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const dirty = baseUrl !== config.base_url || apiKey !== '';
  return (
    <form onSubmit={submit} noValidate aria-label="DreamApply settings">
      <Stack gap="sm" maw={720}>
        <TextInput label="Base URL" required placeholder="https://instance.dreamapply.com/api/" value={baseUrl} onChange={(e) => setBaseUrl(e.currentTarget.value)} error={errors.base_url} />
        <PasswordInput
          label="API key"
          autoComplete="new-password"
          description={config.api_key_set ? 'A key is stored: leave empty to keep it' : 'No key stored'}
          placeholder={config.api_key_set ? '••••••••' : undefined}
          value={apiKey}
          onChange={(e) => setApiKey(e.currentTarget.value)}
          error={errors.api_key}
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

function DreamApplyLoader() {
  const query = useQuery({ queryKey: KEY, queryFn: () => api.get<DreamApplyConfig>(PATH) });
  if (query.isPending) return <Loader aria-label="Loading" />;
  if (query.isError || !query.data)
    return (
      <Alert color="red" role="alert">
        The DreamApply settings could not be loaded
      </Alert>
    );
  return <DreamApplyForm config={query.data} />;
}

/** The DreamApply tab of the configuration screen (issue 16): where the import reads from, for Developers only. */
export function DreamApplySettings() {
  return (
    <RequireLevel level={apiPermissions['GET /config/dream_apply'] as 'developer'}>
      <DreamApplyLoader />
    </RequireLevel>
  );
}
