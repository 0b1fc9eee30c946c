import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Choice, ChoiceChecksum, SearchedChoiceListName } from '@app/contracts';
import { api, type QueryValue } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/**
 * An option list (`GET /{name}/choice`), cached by its checksum: the small checksum call is repeated when the
 * list is used again, the list itself only when the checksum has changed.
 */
export function useChoices(name: string, params?: Record<string, QueryValue>) {
  const checksum = useQuery({
    queryKey: queryKeys.choiceChecksum(name, params),
    queryFn: ({ signal }) => api.get<ChoiceChecksum>(`/${name}/choice_checksum`, { query: params, signal }),
  });
  const sum = checksum.data?.checksum;
  const list = useQuery({
    queryKey: queryKeys.choices(name, params, sum ?? ''),
    queryFn: ({ signal }) => api.get<Choice[]>(`/${name}/choice`, { query: params, signal }),
    enabled: sum !== undefined,
    staleTime: Infinity,
    gcTime: 60 * 60_000,
  });
  return {
    choices: list.data ?? [],
    isLoading: checksum.isLoading || list.isLoading,
    error: checksum.error ?? list.error,
  };
}

/**
 * A list searched on the server (every student, every contract): the first matches of `term` and the choice
 * with id `held`, asked again as the text changes; the options on screen stay while the next ones load.
 * `params` narrows a list that takes parameters (the invoices of one contract: `{ contract_id }`).
 */
export function useSearchedChoices(name: SearchedChoiceListName, term: string, held: number | undefined, params?: Record<string, QueryValue>) {
  const query = useQuery({
    queryKey: queryKeys.choiceSearch(name, term, held, params),
    queryFn: ({ signal }) => api.get<Choice[]>(`/${name}/choice/search`, { query: { ...params, search: term || undefined, id: held }, signal }),
    placeholderData: keepPreviousData,
  });
  return { choices: query.data ?? [], isLoading: query.isFetching, error: query.error };
}
