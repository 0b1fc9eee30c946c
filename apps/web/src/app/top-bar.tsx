import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Badge, Button, Group, Menu, Text } from '@mantine/core';
import { APP_VERSION } from '@app/contracts';
import { useAlerts } from '../lib/alerts';
import { useAuth, useSessionUser } from '../lib/auth';
import { ChevronDownIcon } from '../lib/icons';
import { hasUnsavedChanges, UnsavedChangesDialog } from '../machinery/detail/leave-guard';
import { logEventsEntry, menus, type MenuGroup } from './screens';

function TopMenu({ group }: { group: MenuGroup }) {
  const { hasLevel } = useAuth();
  const entries = group.entries.filter((e) => !e.level || hasLevel(e.level));
  return (
    <Menu position="bottom-start" shadow="md" withinPortal>
      <Menu.Target>
        <Button variant="subtle" color="gray" size="compact-md" rightSection={<ChevronDownIcon size={14} />}>
          {group.label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {entries.map((e) => (
          <Menu.Item key={e.path} component={Link} to={e.path}>
            {e.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The top bar of every logged-in page (spec §2 "Top bar"). */
export function TopBar() {
  const user = useSessionUser();
  const { hasLevel, logout } = useAuth();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const visibleMenus = menus.filter((g) => !g.level || hasLevel(g.level));
  const managesVisible = visibleMenus.some((g) => g.entries.some((e) => e.path === logEventsEntry.path));

  const [confirmLogout, setConfirmLogout] = useState(false);

  const onLogout = async () => {
    setConfirmLogout(false);
    await logout();
    // The next user must not see the alerts of this one.
    alerts.clear();
    navigate('/login', { replace: true });
  };

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="md">
      <Group gap="lg" wrap="nowrap">
        <Anchor component={Link} to="/" fw={700} size="lg" underline="never" c="blue.8">
          Scholarship Office
        </Anchor>
        <Group gap={2} wrap="nowrap" component="nav" aria-label="Main">
          {visibleMenus.map((g) => (
            <TopMenu key={g.label} group={g} />
          ))}
          {!managesVisible && (
            <Button component={Link} to={logEventsEntry.path} variant="subtle" color="gray" size="compact-md">
              {logEventsEntry.label}
            </Button>
          )}
        </Group>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <Text size="sm" data-testid="session-user">
          {user.usr_name} ({user.userrole_name})
        </Text>
        <Badge variant="light" color="gray" radius="sm" tt="none">
          {APP_VERSION}
        </Badge>
        <Button variant="default" size="compact-sm" onClick={() => (hasUnsavedChanges() ? setConfirmLogout(true) : void onLogout())}>
          Logout
        </Button>
        <UnsavedChangesDialog
          opened={confirmLogout}
          message="A screen has changes that are not saved. Log out without saving them?"
          leaveLabel="Log out without saving"
          onStay={() => setConfirmLogout(false)}
          onLeave={() => void onLogout()}
        />
      </Group>
    </Group>
  );
}
