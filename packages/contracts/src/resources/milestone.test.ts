import { describe, expect, it } from 'vitest';
import { referenceOf } from '../common/resource.js';
import { milestoneResource } from './milestone.js';
import { studentFeeResource } from './student-fee.js';

describe('references of student fees and milestones', () => {
  it('names a student fee by intake and scholarship', () => {
    expect(referenceOf(studentFeeResource, { id: 4, intake: 2024, scholarship_code: 'EU-FULL' })).toBe('2024 EU-FULL');
  });

  it('names a milestone by intake, scholarship, year and date as people read it, with what it has', () => {
    expect(referenceOf(milestoneResource, { id: 7, intake: 2024, scholarship_code: 'EU-FULL', year: 1, milestone_date: '2024-09-15' })).toBe('2024 EU-FULL Y1 15-09-2024');
    expect(referenceOf(milestoneResource, { id: 7, intake: 2024, scholarship_code: 'EU-FULL', year: 2, milestone_date: null })).toBe('2024 EU-FULL Y2');
    expect(referenceOf(milestoneResource, { id: 7 })).toBe('7');
  });
});
