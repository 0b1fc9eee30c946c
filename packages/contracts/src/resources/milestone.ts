import { z } from 'zod';
import { defineResource } from '../common/resource.js';
import { formatDate } from '../common/format.js';
import { intake, isoDate, text, wholeNumber as whole, nonNegativeMoney, requiredRef } from '../common/fields.js';

export const MilestoneSchema = z.object({
  id: z.number().int(),
  intake: z.number().int(),
  scholarship_id: z.number().int(),
  scholarship_code: z.string(),
  year: z.number().int(),
  milestone_date: z.string().nullable(),
  milestone_amount: z.number(),
  edit_timestamp: z.string().nullable(),
});

const programYear = z.number({ error: 'Year is required' }).int('Year must be 1 or 2').min(1, 'Year must be 1 or 2').max(2, 'Year must be 1 or 2');

export const MilestoneCreateSchema = z.object({
  intake: intake(),
  scholarship_id: requiredRef('Scholarship'),
  year: programYear,
  milestone_date: isoDate('Date').nullish(),
  // A new milestone's amount is 0 (spec §5).
  milestone_amount: nonNegativeMoney('Amount').default(0),
});

export const MilestoneUpdateSchema = z
  .object({
    intake: intake(),
    scholarship_id: requiredRef('Scholarship'),
    year: programYear,
    milestone_date: isoDate('Date').nullable(),
    milestone_amount: nonNegativeMoney('Amount'),
  })
  .partial()
  .extend({ id: z.number().int().positive() });


export const MilestoneFilterSchema = z.object({
  intake: whole('intake').optional(),
  scholarship_type: text('scholarship_type').trim().max(100, 'scholarship_type must be at most 100 characters').optional(),
  scholarship_id: whole('scholarship_id').optional(),
  year: whole('year').optional(),
});

export type Milestone = z.infer<typeof MilestoneSchema>;

/** A milestone's name for people: intake, scholarship, year and date (`2024 EU-FULL Y1 15-09-2024`), what it has of them. */
export function milestoneReference(row: Record<string, unknown>): string {
  const year = typeof row.year === 'number' ? `Y${row.year}` : '';
  const day = typeof row.milestone_date === 'string' ? formatDate(row.milestone_date) : '';
  return [row.intake, row.scholarship_code, year, day].filter((v) => v !== null && v !== undefined && v !== '').map(String).join(' ');
}

export const milestoneResource = defineResource({
  key: 'milestone',
  title: 'Milestone',
  titlePlural: 'Milestones',
  apiPath: 'milestones',
  routes: { overview: '/milestones', detail: '/milestone' },
  schema: MilestoneSchema,
  createSchema: MilestoneCreateSchema,
  updateSchema: MilestoneUpdateSchema,
  filterSchema: MilestoneFilterSchema,
  sortable: ['intake', 'scholarship_code', 'year', 'milestone_date', 'milestone_amount', 'edit_timestamp'],
  defaultSort: [{ field: 'intake', direction: 'asc' }],
  access: { read: 'reader', write: 'administrator' },
  deletable: true,
  // A cohort has several milestones: `2024 EU-FULL Y1 15-09-2024`.
  referenceField: ['intake', 'scholarship_code', 'year', 'milestone_date'],
  reference: milestoneReference,
  columns: [
    { field: 'intake', title: 'Intake', width: 90 },
    { field: 'scholarship_code', title: 'Scholarship' },
    { field: 'year', title: 'Year', width: 70 },
    { field: 'milestone_date', title: 'Date', format: 'date' },
    { field: 'milestone_amount', title: 'Amount', format: 'money' },
    { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
  ],
});
