import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PER_PAGE, formatSort, type AnyResource, type Paged, type Pagination, type SortKey } from '@app/contracts';
import { api, type QueryValue } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { loadOverviewState, nextSort, saveOverviewState, type OverviewState } from './overview-state';
import type { AnyRow, RowOf } from './types';

/** Quick filter is applied this long after the last keystroke (spec §9). */
export const QUICK_FILTER_DEBOUNCE_MS = 500;

export interface OverviewOptions {
  /** Filters always sent and never shown (the planned / numbered / credit-note variants, a contract's links). */
  fixedFilters?: Readonly<Record<string, QueryValue>>;
  /** The view's default sort; the resource's otherwise. */
  defaultSort?: readonly SortKey[];
  perPage?: number;
  /**
   * Advanced filters the link that opened the overview carries (`/scholarshippayments/numbered?contract_id=12`):
   * they narrow the list, with the filter card open so the user sees why. A linked overview remembers its state
   * apart from the plain one (see `linkedStateId`): following a contract's link leaves the filter the user set on
   * the plain overview as it was.
   */
  linkedFilters?: Readonly<Record<string, unknown>>;
}

/**
 * Where an overview opened by a link remembers its state: the overview's id and the link's filters
 * (`invoice:numbered?contract_id=12`), so each contract's list keeps its own page and sort, and the plain
 * overview its own.
 */
export function linkedStateId(overviewId: string, linked: Readonly<Record<string, unknown>> | undefined): string {
  const entries = Object.entries(linked ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return overviewId;
  return `${overviewId}?${entries.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&')}`;
}

type Id = AnyRow['id'];

function filterValue(value: unknown): QueryValue {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/**
 * The state of one overview: page, sort keys, quick filter (debounced), advanced filters and selection.
 * Everything but the selection is kept in sessionStorage under `overviewId`, so leaving the overview and coming
 * back in the same tab restores it. Several overviews may share a resource (planned and numbered invoices).
 */
export function useOverview<D extends AnyResource>(descriptor: D, overviewId: string = descriptor.key, options: OverviewOptions = {}) {
  const perPage = options.perPage ?? DEFAULT_PER_PAGE;
  const { fixedFilters } = options;
  const defaultSort = options.defaultSort ?? descriptor.defaultSort;

  const linked = options.linkedFilters;
  const isLinked = linked !== undefined && Object.keys(linked).length > 0;
  // Computed once: the page is keyed by the link (OverviewPage), so another link is another mount.
  const [stateId] = useState(() => linkedStateId(overviewId, linked));
  const [state, setState] = useState<OverviewState>(() => {
    const loaded = loadOverviewState(stateId, { page: 1, sort: [...defaultSort], search: '', filters: {} }, descriptor.sortable);
    // The link's filters always hold, over what this link's list remembers.
    return isLinked ? { ...loaded, filters: { ...loaded.filters, ...linked }, advanced: true } : loaded;
  });
  const [searchInput, setSearchInputState] = useState(state.search);
  /** An unfiltered big list shows the server's estimate ("about"); the user may ask for the exact count. */
  const [exactCount, setExactCount] = useState(false);
  const [selected, setSelected] = useState<readonly Id[]>([]);
  /** The version (edit_timestamp) of each selected row as it was shown: a batch refuses rows changed since. */
  const [versions, setVersions] = useState<Readonly<Record<string, string>>>({});
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    saveOverviewState(stateId, state);
  }, [stateId, state]);

  useEffect(() => () => clearTimeout(debounce.current), []);

  const applySearch = useCallback((text: string) => {
    clearTimeout(debounce.current);
    setState((s) => (s.search === text ? s : { ...s, search: text, page: 1 }));
  }, []);

  /** Typing: the filter follows 500 ms after the last keystroke. */
  const setSearchInput = useCallback(
    (text: string) => {
      setSearchInputState(text);
      clearTimeout(debounce.current);
      debounce.current = setTimeout(() => applySearch(text), QUICK_FILTER_DEBOUNCE_MS);
    },
    [applySearch],
  );

  /** Enter: apply what was typed now. */
  const submitSearch = useCallback(() => applySearch(searchInput), [applySearch, searchInput]);

  const clearSearch = useCallback(() => {
    setSearchInputState('');
    applySearch('');
  }, [applySearch]);

  const setPage = useCallback((page: number) => setState((s) => ({ ...s, page: Math.max(1, page) })), []);

  const toggleSort = useCallback(
    (field: string, additive: boolean) => setState((s) => ({ ...s, sort: nextSort(s.sort, field, additive), page: 1 })),
    [],
  );

  const setSort = useCallback((sort: SortKey[]) => setState((s) => ({ ...s, sort, page: 1 })), []);

  /** Advanced filters, as query parameters. Applying returns to page 1. */
  const setFilters = useCallback(
    (filters: Record<string, unknown>) => setState((s) => ({ ...s, filters, page: 1 })),
    [],
  );

  /**
   * Opens or closes the advanced filter card. Its filters are sent only while it is open (a hidden filter
   * would narrow the list without the user seeing why); they are kept, and apply again when it reopens.
   */
  const setAdvanced = useCallback(
    (open: boolean) =>
      setState((s) => {
        const { advanced: _was, ...rest } = s;
        const changesList = Object.keys(s.filters).length > 0;
        return { ...rest, ...(open ? { advanced: true } : {}), page: changesList ? 1 : s.page };
      }),
    [],
  );

  const resetFilters = useCallback(() => {
    clearTimeout(debounce.current);
    setSearchInputState('');
    setState((s) => ({ ...s, search: '', filters: {}, page: 1 }));
  }, []);

  /**
   * The page beside the one shown, as the server linked it (`links.next` / `links.prev`): asking for it with its
   * cursor finds it from the row next to it, as quickly on page 1,000 as on page 1. Kept for one list and page.
   */
  const [cursor, setCursor] = useState<{ list: string; page: number; cursor: string }>();

  /** The list query but its page (filters, search, sort, page size, count). */
  const listParams = useMemo(() => {
    const p: Record<string, QueryValue> = {};
    if (state.advanced) for (const [k, v] of Object.entries(state.filters)) p[k] = filterValue(v);
    Object.assign(p, fixedFilters);
    p.search = state.search.trim() || undefined;
    p.sort = formatSort(state.sort.length > 0 ? state.sort : defaultSort);
    p.per_page = perPage;
    if (exactCount) p.count = 'exact';
    return p;
  }, [state.advanced, state.filters, state.search, state.sort, fixedFilters, defaultSort, perPage, exactCount]);
  const listKey = useMemo(() => JSON.stringify(listParams), [listParams]);

  const params = useMemo(() => {
    const p: Record<string, QueryValue> = { ...listParams, page: state.page };
    if (cursor && cursor.list === listKey && cursor.page === state.page) p.cursor = cursor.cursor;
    return p;
  }, [listParams, listKey, state.page, cursor]);

  const query = useQuery({
    queryKey: queryKeys.list(descriptor.key, params),
    queryFn: ({ signal }) => api.get<Paged<RowOf<D> & AnyRow>>(`/${descriptor.apiPath}`, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

  /** To the page beside this one, through the server's cursor for it when there is one. */
  const turnPage = (page: number, link: string | undefined) => {
    setCursor(link && page !== state.page ? { list: listKey, page, cursor: link } : undefined);
    setPage(page);
  };

  const rows = useMemo(() => query.data?.data ?? [], [query.data]);
  const pagination: Pagination | undefined = query.data?.links.pagination;
  const lastPage = pagination?.last_page ?? 1;

  // A page past the end — rows left this list (a batch run numbered them, another user deleted some) — shows the
  // last page there is: it showed "0-0 of 17", and the rows left looked gone.
  // The pages kept of this list are as old as the rows that left it: they are loaded again.
  const pastTheEnd = !query.isPlaceholderData && query.data !== undefined && rows.length === 0 && state.page > 1 && (pagination?.total ?? 0) > 0;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!pastTheEnd) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.lists(descriptor.key) });
    // eslint-disable-next-line react-hooks/set-state-in-effect -- follows what the server answered (the list got shorter)
    turnPage(Math.max(1, lastPage), undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the page turns out past the end
  }, [pastTheEnd, lastPage]);

  const selection = useMemo(() => {
    const set = new Set(selected);
    const pageIds = rows.map((r) => r.id);
    const onPage = pageIds.filter((id) => set.has(id)).length;
    return {
      ids: selected,
      versions,
      count: selected.length,
      isSelected: (id: Id) => set.has(id),
      allOnPage: pageIds.length > 0 && onPage === pageIds.length,
      someOnPage: onPage > 0 && onPage < pageIds.length,
    };
  }, [selected, versions, rows]);

  /** Remembers the version of the rows of this page that are (or become) selected. */
  const rememberVersions = useCallback(
    (ids: readonly Id[]) =>
      setVersions((known) => {
        const next = { ...known };
        for (const row of rows) {
          if (ids.includes(row.id) && typeof row.edit_timestamp === 'string') next[String(row.id)] = row.edit_timestamp;
        }
        return next;
      }),
    [rows],
  );

  const toggleSelected = useCallback(
    (id: Id) => {
      rememberVersions([id]);
      setSelected((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));
    },
    [rememberVersions],
  );

  const toggleAllOnPage = useCallback(() => {
    const pageIds = rows.map((r) => r.id);
    rememberVersions(pageIds);
    setSelected((ids) => {
      const all = pageIds.length > 0 && pageIds.every((id) => ids.includes(id));
      return all ? ids.filter((id) => !pageIds.includes(id)) : [...ids, ...pageIds.filter((id) => !ids.includes(id))];
    });
  }, [rows, rememberVersions]);

  const clearSelection = useCallback(() => {
    setSelected([]);
    setVersions({});
  }, []);

  return {
    descriptor,
    overviewId,
    /** The list query as sent (filters, search, sort, page): exports reuse it. */
    params,
    /** The view's fixed filter (`{ planned: 'true' }`): an export of selected rows names its view by it. */
    fixedFilters,
    page: state.page,
    lastPage,
    setPage,
    hasPrevious: state.page > 1,
    hasNext: state.page < lastPage,
    previousPage: () => turnPage(state.page - 1, query.data?.links.prev),
    nextPage: () => turnPage(Math.min(lastPage, state.page + 1), query.data?.links.next),
    sort: state.sort,
    toggleSort,
    setSort,
    search: state.search,
    searchInput,
    setSearchInput,
    submitSearch,
    clearSearch,
    filters: state.filters,
    setFilters,
    advanced: state.advanced === true,
    setAdvanced,
    resetFilters,
    selection,
    toggleSelected,
    toggleAllOnPage,
    clearSelection,
    rows,
    pagination,
    countExactly: () => setExactCount(true),
    isLoading: query.isLoading,
    isFetching: query.isFetching,
    error: query.error,
    refetch: query.refetch,
  };
}

export type Overview<D extends AnyResource = AnyResource> = ReturnType<typeof useOverview<D>>;
