import { describe, expect, it } from 'vitest';
import { canTransition, statusActionsFrom, STATUS_ACTIONS } from './contract-status.js';
import { contractEndDate } from './end-date.js';

describe('contract status transitions (spec §4)', () => {
  const allowed: Record<number, number[]> = { 1: [2, 3], 2: [1, 3, 6], 3: [2, 4, 5, 6], 4: [3, 6], 5: [6], 6: [3] };

  it('allows exactly the transitions of the table', () => {
    for (let from = 1; from <= 6; from++) {
      for (let to = 1; to <= 6; to++) {
        expect(canTransition(from, to), `${from} → ${to}`).toBe(allowed[from]!.includes(to));
      }
    }
  });

  it('offers the actions of a status in the spec order', () => {
    expect(statusActionsFrom(3).map((a) => a.label)).toEqual(['Reject Offer', 'Take a break', 'Graduate', 'Drop-out']);
    expect(statusActionsFrom(1).map((a) => a.label)).toEqual(['Reject Offer', 'Enrole']);
    expect(statusActionsFrom(5).map((a) => a.label)).toEqual(['Drop-out']);
    expect(statusActionsFrom(99)).toEqual([]);
    expect(STATUS_ACTIONS).toHaveLength(6);
  });
});

describe('contract end date', () => {
  it('is the day before the same date two years later', () => {
    expect(contractEndDate('2024-09-01')).toBe('2026-08-31');
    expect(contractEndDate('2024-01-01')).toBe('2025-12-31');
    expect(contractEndDate('2023-03-01')).toBe('2025-02-28');
    expect(contractEndDate('2022-03-01')).toBe('2024-02-29');
  });

  it('clamps a 29 February start to 28 February before going back a day', () => {
    expect(contractEndDate('2024-02-29')).toBe('2026-02-27');
  });

  it('refuses text that is not a date', () => {
    expect(() => contractEndDate('01-09-2024')).toThrow(/not a date/);
  });
});
