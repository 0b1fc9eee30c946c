import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Alert, Center, Loader } from '@mantine/core';
import type { Level } from '@app/contracts';
import { useAuth } from './auth';

function Loading() {
  return (
    <Center h="100vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}

/** Every route but /login needs a logged-in user (spec §2); others are sent to the login screen. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'anonymous') return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

/** /login is for logged-out visitors only. */
export function RedirectIfAuthenticated({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'authenticated') return <Navigate to="/" replace />;
  return children;
}

export function NotAllowed({ what = 'this page' }: { what?: string }) {
  return (
    <Alert color="red" variant="light" role="alert" title="Not allowed">
      You are not allowed to open {what}.
    </Alert>
  );
}

/** A screen that needs more than a logged-in user (spec §6: /config needs Administrator or Developer). */
export function RequireLevel({ level, children }: { level: Level; children: ReactNode }) {
  const { hasLevel } = useAuth();
  return hasLevel(level) ? children : <NotAllowed />;
}
