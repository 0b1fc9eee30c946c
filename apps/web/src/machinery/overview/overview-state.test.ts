import { describe, expect, it } from 'vitest';
import { loadOverviewState, nextSort, saveOverviewState } from './overview-state';

describe('nextSort', () => {
  it('sorts by a clicked column alone, ascending first', () => {
    expect(nextSort([{ field: 'a', direction: 'asc' }, { field: 'b', direction: 'desc' }], 'c', false)).toEqual([
      { field: 'c', direction: 'asc' },
    ]);
  });

  it('flips the direction when the only key is clicked again', () => {
    expect(nextSort([{ field: 'a', direction: 'asc' }], 'a', false)).toEqual([{ field: 'a', direction: 'desc' }]);
    expect(nextSort([{ field: 'a', direction: 'desc' }], 'a', false)).toEqual([{ field: 'a', direction: 'asc' }]);
  });

  it('adds a shift-clicked column as the next key, or flips it when it already is one', () => {
    const one = [{ field: 'a', direction: 'asc' as const }];
    const two = nextSort(one, 'b', true);
    expect(two).toEqual([{ field: 'a', direction: 'asc' }, { field: 'b', direction: 'asc' }]);
    expect(nextSort(two, 'a', true)).toEqual([{ field: 'a', direction: 'desc' }, { field: 'b', direction: 'asc' }]);
  });
});

describe('overview state in sessionStorage', () => {
  const defaults = { page: 1, sort: [{ field: 'name', direction: 'asc' as const }], search: '', filters: {} };

  it('reads back what was saved', () => {
    const state = { page: 3, sort: [{ field: 'code', direction: 'desc' as const }], search: 'x', filters: { intake: 2021 } };
    saveOverviewState('t1', state);
    expect(loadOverviewState('t1', defaults, ['name', 'code'])).toEqual(state);
  });

  it('drops sort keys that are no longer sortable and falls back to the defaults', () => {
    saveOverviewState('t2', { page: 0, sort: [{ field: 'gone', direction: 'asc' }], search: 'y', filters: {} });
    expect(loadOverviewState('t2', defaults, ['name'])).toEqual({ ...defaults, search: 'y' });
    sessionStorage.setItem('overview:t3', '{not json');
    expect(loadOverviewState('t3', defaults, ['name'])).toEqual(defaults);
  });
});
