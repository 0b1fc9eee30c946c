import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { AppProviders } from '../app/providers';
import { routes } from '../app/router';
import type { ApiStub } from './api-stub';

/**
 * Renders the app's screens (real routes, providers and machinery) at `path`, with `fetch` answered by the
 * test's fixed answers (`stubApi`). Nothing of our own code is mocked.
 */
export function renderApp(path: string, api: ApiStub) {
  return renderRoutes(routes, path, api);
}

/** As renderApp, over the given routes (a machinery test's own resource). */
export function renderRoutes(routeList: RouteObject[], path: string, api: ApiStub) {
  const router = createMemoryRouter(routeList, { initialEntries: [path] });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  // No pause between keystrokes: typing a long IBAN key by key must not take seconds on a loaded machine.
  const user = userEvent.setup({ delay: null });
  const view = render(
    <AppProviders queryClient={queryClient} mantineEnv="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, router, api, user, queryClient, location };
}

/** One element inside the app's providers (a dialog on its own), with `fetch` answered by the test. */
export function renderInApp(element: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  // No pause between keystrokes: typing a long IBAN key by key must not take seconds on a loaded machine.
  const user = userEvent.setup({ delay: null });
  return {
    ...render(
      <AppProviders queryClient={queryClient} mantineEnv="test">
        {element}
      </AppProviders>,
    ),
    user,
  };
}
