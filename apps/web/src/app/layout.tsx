import { Outlet } from 'react-router';
import { AppShell } from '@mantine/core';
import { HEADER_HEIGHT } from '../lib/layout';
import { TopBar } from './top-bar';

/** The frame of every logged-in page: the top bar and the screen (alerts are toasts). */
export function AppLayout() {
  return (
    <AppShell header={{ height: HEADER_HEIGHT }} padding="md">
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
