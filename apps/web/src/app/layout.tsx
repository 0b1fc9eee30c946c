import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { AppShell } from '@mantine/core';
import { useAlerts } from '../lib/alerts';
import { HEADER_HEIGHT } from '../lib/layout';
import { TopBar } from './top-bar';

/**
 * The frame of every logged-in page: the top bar and the screen (alerts are toasts). Another screen opened takes
 * the error alerts of the one before with it: they were about that screen (decision 052).
 */
export function AppLayout() {
  const { pathname } = useLocation();
  const { clearErrors } = useAlerts();
  useEffect(() => {
    if (pathname) clearErrors();
  }, [pathname, clearErrors]);
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
