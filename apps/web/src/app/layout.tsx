import { Outlet } from 'react-router';
import { AppShell } from '@mantine/core';
import { AlertList } from '../lib/alerts';
import { HEADER_HEIGHT } from '../lib/layout';
import { TopBar } from './top-bar';

/** The frame of every logged-in page: top bar, the page's alerts, the screen. */
export function AppLayout() {
  return (
    <AppShell header={{ height: HEADER_HEIGHT }} padding="md">
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Main>
        <AlertList />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
