import type { SortDirection, SortKey } from '@app/contracts';

/** What an overview remembers for the session (spec §2: filters and the current page, per overview). */
export interface OverviewState {
  page: number;
  sort: SortKey[];
  search: string;
  /** The applied advanced filters, as query parameters. */
  filters: Record<string, unknown>;
  /** Whether the advanced filter card is open; its filters apply only while it is. */
  advanced?: boolean;
}

const storageKey = (overviewId: string) => `overview:${overviewId}`;

function isSortKey(value: unknown, sortable: readonly string[]): value is SortKey {
  if (typeof value !== 'object' || value === null) return false;
  const { field, direction } = value as Record<string, unknown>;
  return typeof field === 'string' && sortable.includes(field) && (direction === 'asc' || direction === 'desc');
}

/** The remembered state, or the defaults. Anything unreadable or no longer sortable is dropped. */
export function loadOverviewState(overviewId: string, defaults: OverviewState, sortable: readonly string[]): OverviewState {
  let stored: unknown;
  try {
    stored = JSON.parse(sessionStorage.getItem(storageKey(overviewId)) ?? 'null');
  } catch {
    stored = null;
  }
  if (typeof stored !== 'object' || stored === null) return defaults;
  const s = stored as Record<string, unknown>;
  const sort = Array.isArray(s.sort) ? s.sort.filter((k) => isSortKey(k, sortable)) : [];
  const page = typeof s.page === 'number' && Number.isInteger(s.page) && s.page >= 1 ? s.page : defaults.page;
  const state: OverviewState = {
    page,
    sort: sort.length > 0 ? sort : defaults.sort,
    search: typeof s.search === 'string' ? s.search : defaults.search,
    filters:
      typeof s.filters === 'object' && s.filters !== null && !Array.isArray(s.filters)
        ? (s.filters as Record<string, unknown>)
        : defaults.filters,
  };
  if (s.advanced === true) state.advanced = true;
  return state;
}

export function saveOverviewState(overviewId: string, state: OverviewState): void {
  try {
    sessionStorage.setItem(storageKey(overviewId), JSON.stringify(state));
  } catch {
    // Storage full or disabled: the overview still works, it just forgets.
  }
}

const flip = (d: SortDirection): SortDirection => (d === 'asc' ? 'desc' : 'asc');

/**
 * Multi-column sorting (DESIGN §6). A click sorts by the column alone (a second click on the only key flips it);
 * a shift-click adds the column as the next key, or flips it if it already is one.
 */
export function nextSort(current: readonly SortKey[], field: string, additive: boolean): SortKey[] {
  const index = current.findIndex((k) => k.field === field);
  if (additive) {
    if (index === -1) return [...current, { field, direction: 'asc' }];
    return current.map((k, i) => (i === index ? { field, direction: flip(k.direction) } : k));
  }
  const existing = current[index];
  if (current.length === 1 && existing) return [{ field, direction: flip(existing.direction) }];
  return [{ field, direction: 'asc' }];
}
