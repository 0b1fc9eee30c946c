import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../test/api-stub';
import { countryRows, failure, page, session } from '../test/fixtures';
import { renderApp } from '../test/render-app';

describe('the frame of the logged-in pages', () => {
  it('takes the error alerts of a screen away when another screen is opened (decision 052)', async () => {
    const api = stubApi({ ...session(), 'GET /countries/1': { body: countryRows[0] }, 'DELETE /countries/1': failure(500, 'x'), 'GET /countries': page(countryRows) });
    const { user, router } = renderApp('/country/1', api);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error while deleting');
    await router.navigate('/countries');
    expect(await screen.findByRole('heading', { name: 'Countries' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it("opens a screen at its heading, names the browser tab after it, and offers a skip link first (decision 055)", async () => {
    const api = stubApi({ ...session(), 'GET /countries/1': { body: countryRows[0] }, 'GET /countries': page(countryRows) });
    const { user, router } = renderApp('/countries', api);
    expect(await screen.findByRole('heading', { name: 'Countries' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Countries · Scholarship Office'));
    // The first Tab of a page reaches the skip link, which moves focus to the screen's heading.
    document.body.focus();
    await user.tab();
    expect(document.activeElement).toHaveTextContent('Skip to main content');
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Countries' }));
    // Another screen: focus on its heading, the tab named after it.
    await router.navigate('/country/1');
    const heading = await screen.findByRole('heading', { name: /Country/ });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    await waitFor(() => expect(document.title).toBe(`${heading.textContent!.trim()} · Scholarship Office`));
  });
});
