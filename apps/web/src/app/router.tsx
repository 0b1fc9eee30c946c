import type { RouteObject } from 'react-router';
import { uiPermissions } from '@app/contracts';
import { RedirectIfAuthenticated, RequireAuth, RequireLevel } from '../lib/auth-guards';
import { screenPaths } from '../resources/screens';
import { AppLayout } from './layout';
import { LoginPage } from './login-page';
import { ComingSoonPage, HomePage, NotFoundPage } from './pages';
import { RouteError } from './route-error';
import { plannedScreens } from './screens';

const built = new Set(screenPaths());

/**
 * A resource screen, loaded with all the others on the first one opened (one chunk: the screens share their
 * machinery). A path the registry has no screen for (a view without a detail) is not found.
 */
function lazyScreen(path: string): RouteObject {
  return {
    path,
    lazy: async () => {
      const { resourceUis } = await import('../resources/registry');
      const route = resourceUis.flatMap((r) => r.routes).find((r) => r.path === path);
      return { element: route?.element ?? <NotFoundPage /> };
    },
  };
}

/** The screens inside the app's frame. */
const screenRoutes: RouteObject[] = [
  { index: true, element: <HomePage /> },
  ...screenPaths().map(lazyScreen),
  {
    path: '/config',
    lazy: async () => {
      const { ConfigPage } = await import('./config/config-page');
      return {
        element: (
          <RequireLevel level={uiPermissions['route.config']}>
            <ConfigPage />
          </RequireLevel>
        ),
      };
    },
  },
  {
    path: '/scholarshippayments/by_scholarship',
    lazy: async () => {
      const { ScholarshipOverviewPage } = await import('../resources/scholarship-payment/scholarship-overview');
      return { element: <ScholarshipOverviewPage /> };
    },
  },
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
];

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
      {
        // A screen that fails (its code gone after an update) is said in words inside the app's frame (decision 052).
        errorElement: <RouteError />,
        children: screenRoutes,
      },
    ],
  },
];

