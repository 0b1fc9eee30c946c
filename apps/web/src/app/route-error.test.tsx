import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/api-stub';
import { session } from '../test/fixtures';
import { renderRoutes } from '../test/render-app';
import { RouteError } from './route-error';
import { routes } from './router';

function Broken(): never {
  throw new Error('boom: cannot read properties of undefined');
}

/** The app's shape: a frame whose screens fail into RouteError. */
const routesFailing = (child: object) => [{ path: '/', element: <main>frame</main>, children: [] }, { path: '/x', errorElement: <RouteError />, children: [{ index: true, ...child }] }];

describe('a screen that cannot be shown (decision 052)', () => {
  it('after an update (its code gone from the server) says so and offers Reload, not a developer page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const lazy = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://localhost:3000/assets/registry-1a2b3c.js'));
    renderRoutes(routesFailing({ lazy }), '/x', stubApi(session()));
    expect(await screen.findByRole('heading', { name: 'A new version of the app is installed' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Reload the page to work with the new version');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(screen.queryByText(/Hey developer|Unexpected Application Error/)).not.toBeInTheDocument();
  });

  it('any other failure is named without its internals, with the way home', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderRoutes(routesFailing({ element: <Broken /> }), '/x', stubApi(session()));
    expect(await screen.findByRole('heading', { name: 'This screen could not be shown' })).toBeInTheDocument();
    expect(screen.queryByText(/boom/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home screen' })).toHaveAttribute('href', '/');
  });

  it('catches every screen of the app inside its frame', () => {
    const frame = routes.find((r) => r.path === '/')!;
    expect(frame.children).toHaveLength(1);
    const [screens] = frame.children!;
    expect((screens!.errorElement as { type?: unknown }).type).toBe(RouteError);
    expect(screens!.children!.length).toBeGreaterThan(20);
  });
});
