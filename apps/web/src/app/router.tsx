import type { RouteObject } from 'react-router';
import { RedirectIfAuthenticated, RequireAuth, RequireLevel } from '../lib/auth-guards';
import { resourceUis } from '../resources/registry';
import { AppLayout } from './layout';
import { LoginPage } from './login-page';
import { ComingSoonPage, HomePage, NotFoundPage } from './pages';
import { plannedScreens } from './screens';

const built = new Set(resourceUis.flatMap((r) => r.routes.map((route) => route.path)));

/** The route table (spec §2), shared by the hash router of the app and the memory router of the tests. */
export const routes: RouteObject[] = [
  {
    path: '/login',
    element: (
      <RedirectIfAuthenticated>
        <LoginPage />
      </RedirectIfAuthenticated>
    ),
  },
  {
    path: '/',
    element: (
      <RequireAuth>
        <AppLayout />
      </RequireAuth>
    ),
    children: [
      { index: true, element: <HomePage /> },
      ...resourceUis.flatMap((r) => r.routes),
      ...plannedScreens
        .filter((s) => !built.has(s.path))
        .map((s) => ({
          path: s.path,
          element: s.level ? (
            <RequireLevel level={s.level}>
              <ComingSoonPage title={s.title} />
            </RequireLevel>
          ) : (
            <ComingSoonPage title={s.title} />
          ),
        })),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
