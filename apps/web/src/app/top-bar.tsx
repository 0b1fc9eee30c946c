import { useId, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Anchor, Badge, Burger, Button, Divider, Drawer, Group, Menu, NavLink, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { APP_VERSION } from '@app/contracts';
import { useAlerts } from '../lib/alerts';
import { useAuth, useSessionUser } from '../lib/auth';
import { ChevronDownIcon } from '../lib/icons';
import { MyBatchRuns } from '../machinery/batch/my-runs';
import { UnsavedChangesDialog } from '../machinery/detail/leave-guard';
import { hasUnsavedChanges } from '../lib/unsaved-changes';
import { logEventsEntry, menus, type MenuEntry, type MenuGroup } from './screens';

/**
 * Below this width the menus, the user and Logout no longer fit beside each other: they move into a drawer
 * opened by a burger button. Must match the `em` value of Mantine's `lg` breakpoint (`visibleFrom="lg"`).
 */
const WIDE_TOP_BAR = 'lg';
const WIDE_TOP_BAR_QUERY = '(min-width: 75em)';

/** The menus and entries the user's role allows (spec §6); Log Events stands alone where Manage is hidden. */
function useVisibleMenus(): { groups: MenuGroup[]; logEvents: MenuEntry | null } {
  const { hasLevel } = useAuth();
  const groups = menus
    .filter((g) => !g.level || hasLevel(g.level))
    .map((g) => ({ ...g, entries: g.entries.filter((e) => !e.level || hasLevel(e.level)) }));
  const inManage = groups.some((g) => g.entries.some((e) => e.path === logEventsEntry.path));
  return { groups, logEvents: inManage ? null : logEventsEntry };
}

function TopMenu({ group }: { group: MenuGroup }) {
  return (
    <Menu position="bottom-start" shadow="md" withinPortal>
      <Menu.Target>
        <Button variant="subtle" color="gray" size="compact-md" rightSection={<ChevronDownIcon size={14} />}>
          {group.label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {group.entries.map((e) => (
          <Menu.Item key={e.path} component={Link} to={e.path}>
            {e.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

function SessionUser(props: { 'data-testid'?: string }) {
  const user = useSessionUser();
  return (
    <Text size="sm" {...props}>
      {user.usr_name} ({user.userrole_name})
    </Text>
  );
}

function VersionBadge() {
  return (
    <Badge variant="light" color="gray" radius="sm" tt="none">
      {APP_VERSION}
    </Badge>
  );
}

/** One menu of the drawer: its label and its entries as links. */
function DrawerMenu({ group, onNavigate }: { group: MenuGroup; onNavigate: () => void }) {
  const labelId = useId();
  const { pathname } = useLocation();
  return (
    <div role="group" aria-labelledby={labelId}>
      <Text id={labelId} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
        {group.label}
      </Text>
      {group.entries.map((e) => (
        <NavLink key={e.path} component={Link} to={e.path} label={e.label} active={pathname === e.path} onClick={onNavigate} />
      ))}
    </div>
  );
}

/**
 * The top bar of every logged-in page (spec §2 "Top bar"). On wide screens: brand, menus, user, version and
 * Logout in one row. On narrow ones: a burger and the brand; the burger opens a drawer with the same user,
 * version, menus and Logout.
 */
export function TopBar() {
  const { logout } = useAuth();
  const alerts = useAlerts();
  const navigate = useNavigate();
  const { groups, logEvents } = useVisibleMenus();
  const [drawerOpened, drawer] = useDisclosure(false);
  // A drawer left open while the window grows would keep the page's scrolling locked behind it.
  const wide = useMediaQuery(WIDE_TOP_BAR_QUERY);
  const drawerId = useId();

  const [confirmLogout, setConfirmLogout] = useState(false);

  const onLogout = async () => {
    setConfirmLogout(false);
    await logout();
    // The next user must not see the alerts of this one.
    alerts.clear();
    navigate('/login', { replace: true });
  };
  const requestLogout = () => {
    drawer.close();
    if (hasUnsavedChanges()) setConfirmLogout(true);
    else void onLogout();
  };

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="md">
      <Group gap="lg" wrap="nowrap">
        <Burger
          hiddenFrom={WIDE_TOP_BAR}
          size="sm"
          opened={drawerOpened}
          onClick={drawer.toggle}
          aria-label="Open navigation"
          aria-expanded={drawerOpened}
          aria-controls={drawerOpened ? drawerId : undefined}
        />
        <Anchor component={Link} to="/" fw={700} size="lg" underline="never" c="blue.8" style={{ whiteSpace: 'nowrap' }}>
          Scholarship Office
        </Anchor>
        <Group gap={2} wrap="nowrap" component="nav" aria-label="Main" visibleFrom={WIDE_TOP_BAR}>
          {groups.map((g) => (
            <TopMenu key={g.label} group={g} />
          ))}
          {logEvents && (
            <Button component={Link} to={logEvents.path} variant="subtle" color="gray" size="compact-md">
              {logEvents.label}
            </Button>
          )}
        </Group>
      </Group>
      <Group gap="sm" wrap="nowrap" visibleFrom={WIDE_TOP_BAR}>
        <SessionUser data-testid="session-user" />
        <VersionBadge />
        <MyBatchRuns />
        <Button variant="default" size="compact-sm" onClick={requestLogout}>
          Logout
        </Button>
      </Group>

      <Drawer id={drawerId} opened={drawerOpened && !wide} onClose={drawer.close} title="Navigation" size="xs">
        <Stack gap="xs">
          <SessionUser />
          {/* Logout before the long menus, so it needs no scrolling on a phone. */}
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <VersionBadge />
            <Group gap="xs" wrap="nowrap">
              <MyBatchRuns />
              <Button variant="default" size="compact-sm" onClick={requestLogout}>
                Logout
              </Button>
            </Group>
          </Group>
          <Divider />
          <nav aria-label="Main">
            {groups.map((g) => (
              <DrawerMenu key={g.label} group={g} onNavigate={drawer.close} />
            ))}
            {logEvents && <DrawerMenu group={{ label: 'Log', entries: [logEvents] }} onNavigate={drawer.close} />}
          </nav>
        </Stack>
      </Drawer>
      <UnsavedChangesDialog
        opened={confirmLogout}
        message="A screen has changes that are not saved. Log out without saving them?"
        leaveLabel="Log out without saving"
        onStay={() => setConfirmLogout(false)}
        onLeave={() => void onLogout()}
      />
    </Group>
  );
}
