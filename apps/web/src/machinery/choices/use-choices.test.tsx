import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/api-stub';
import { choiceList } from '../../test/fixtures';
import { useChoices } from './use-choices';

describe('useChoices', () => {
  it('loads the list again only when its checksum changes', async () => {
    const api = stubApi(choiceList('countries', [{ id: 1, name: 'France' }, { id: 2, name: 'Germany' }], 'a'));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;

    const first = renderHook(() => useChoices('countries'), { wrapper });
    await waitFor(() => expect(first.result.current.choices.map((c) => c.name)).toEqual(['France', 'Germany']));
    first.unmount();

    // Used again with the same checksum: the checksum is asked, the list is not.
    const second = renderHook(() => useChoices('countries'), { wrapper });
    await waitFor(() => expect(api.sent('GET /countries/choice_checksum')).toHaveLength(2));
    expect(second.result.current.choices).toHaveLength(2);
    expect(api.sent('GET /countries/choice')).toHaveLength(1);
    second.unmount();

    api
      .on('GET /countries/choice_checksum', { body: { checksum: 'b' } })
      .on('GET /countries/choice', { body: [{ id: 1, name: 'France' }, { id: 2, name: 'Germany' }, { id: 3, name: 'Italy' }] });
    const third = renderHook(() => useChoices('countries'), { wrapper });
    await waitFor(() => expect(third.result.current.choices).toHaveLength(3));
    expect(api.sent('GET /countries/choice')).toHaveLength(2);
  });
});
