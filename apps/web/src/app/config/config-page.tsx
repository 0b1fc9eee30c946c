import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { uiPermissions, type Config } from '@app/contracts';
import { api } from '../../lib/api-client';
import { failureMessage } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { queryKeys } from '../../lib/query-keys';
import { EmailSettings } from '../../resources/config/EmailSettings';
import { DreamApplySettings } from '../../resources/config/DreamApplySettings';
import { LeaveDialog, useLeaveGuard } from '../../machinery/detail/leave-guard';
import { TemplatesTab } from './templates-tab';

/**
 * The Configuration screen (spec §2, issue 12): the server version, tab Templates for Developers and
 * Administrators, tab Email for Developers only. The route itself is guarded (route.config).
 */
export function ConfigPage() {
  const { hasLevel } = useAuth();
  // The tabs stay mounted, so a switch of tab keeps what was typed; leaving the screen asks while either settings
  // form holds changes (one guard for the screen: a router has one blocker at a time).
  const [emailChanged, setEmailChanged] = useState(false);
  const [dreamApplyChanged, setDreamApplyChanged] = useState(false);
  const { blocker } = useLeaveGuard(emailChanged || dreamApplyChanged);
  const config = useQuery({ queryKey: queryKeys.config, queryFn: () => api.get<Config>('/config') });
  const showEmail = hasLevel(uiPermissions['config.email']);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="baseline">
        <Title order={1} size="h3">
          Configuration
        </Title>
        {config.data && (
          <Text size="sm" c="dimmed">
            Server version {config.data.version}
          </Text>
        )}
      </Group>
      {config.isError && (
        <Alert color="red" variant="light" role="alert">
          {failureMessage(config.error, 'loading the configuration')}
        </Alert>
      )}
      <Tabs defaultValue="templates">
        <Tabs.List>
          <Tabs.Tab value="templates">Templates</Tabs.Tab>
          {showEmail && <Tabs.Tab value="email">Email</Tabs.Tab>}
          {showEmail && <Tabs.Tab value="dream_apply">DreamApply</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="templates" pt="md">
          <TemplatesTab templates={config.data?.templates} loading={config.isPending} />
        </Tabs.Panel>
        {showEmail && (
          <Tabs.Panel value="email" pt="md">
            <EmailSettings onDirtyChange={setEmailChanged} />
          </Tabs.Panel>
        )}
        {/* Developer only, like the Email tab (the same level in the permission table). */}
        {showEmail && (
          <Tabs.Panel value="dream_apply" pt="md">
            <DreamApplySettings onDirtyChange={setDreamApplyChanged} />
          </Tabs.Panel>
        )}
      </Tabs>
      <LeaveDialog blocker={blocker} title="Configuration" />
    </Stack>
  );
}
