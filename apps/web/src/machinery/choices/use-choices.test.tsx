import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { FakeServer } from '../../test/fake-server';
import { useChoices } from './use-choices';

describe('useChoices', () => {
  it('loads the list again only when its checksum changes', async () => {
    let checksum = 'a';
    let names = ['France', 'Germany'];
    const server = new FakeServer()
      .on('GET', '/countries/choice_checksum', () => ({ status: 200, body: { checksum } }))
      .on('GET', '/countries/choice', () => ({ status: 200, body: names.map((name, i) => ({ id: i + 1, name })) }));
    vi.stubGlobal('fetch', server.fetch);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;

    const first = renderHook(() => useChoices('countries'), { wrapper });
    await waitFor(() => expect(first.result.current.choices.map((c) => c.name)).toEqual(['France', 'Germany']));
    first.unmount();

    const second = renderHook(() => useChoices('countries'), { wrapper });
    await waitFor(() => expect(server.requestsTo('GET', '/countries/choice_checksum')).toHaveLength(2));
    expect(second.result.current.choices).toHaveLength(2);
    expect(server.requestsTo('GET', '/countries/choice')).toHaveLength(1);
    second.unmount();

    checksum = 'b';
    names = ['France', 'Germany', 'Italy'];
    const third = renderHook(() => useChoices('countries'), { wrapper });
    await waitFor(() => expect(third.result.current.choices).toHaveLength(3));
    expect(server.requestsTo('GET', '/countries/choice')).toHaveLength(2);
  });
});
