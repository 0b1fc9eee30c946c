import { z } from 'zod';
import { defineResource } from '../common/resource.js';
import { intake, nonNegativeMoney, requiredRef } from '../common/fields.js';

export const StudentFeeSchema = z.object({
  id: z.number().int(),
  intake: z.number().int(),
  scholarship_id: z.number().int(),
  scholarship_code: z.string(),
  registration_fee_amount: z.number(),
  participationfee1_amount: z.number(),
  participationfee2_amount: z.number(),
  administrationfee1_amount: z.number(),
  administrationfee2_amount: z.number(),
  monthly_allowance_amount: z.number(),
  edit_timestamp: z.string().nullable(),
});

export const STUDENT_FEE_AMOUNTS = [
  ['registration_fee_amount', 'Reg Fee'],
  ['participationfee1_amount', 'Part Fee Y1'],
  ['participationfee2_amount', 'Part Fee Y2'],
  ['administrationfee1_amount', 'Admin Fee Y1'],
  ['administrationfee2_amount', 'Admin Fee Y2'],
  ['monthly_allowance_amount', 'Monthly Allowance'],
] as const;

// New amounts default to 0 (spec §5).
const amounts = Object.fromEntries(STUDENT_FEE_AMOUNTS.map(([field, label]) => [field, nonNegativeMoney(label).default(0)])) as {
  [K in (typeof STUDENT_FEE_AMOUNTS)[number][0]]: z.ZodDefault<ReturnType<typeof nonNegativeMoney>>;
};

export const StudentFeeCreateSchema = z.object({
  intake: intake(),
  scholarship_id: requiredRef('Scholarship'),
  ...amounts,
});

export const StudentFeeUpdateSchema = z
  .object({
    intake: intake(),
    scholarship_id: requiredRef('Scholarship'),
    ...Object.fromEntries(STUDENT_FEE_AMOUNTS.map(([field, label]) => [field, nonNegativeMoney(label)])),
  })
  .partial()
  .extend({ id: z.number().int().positive() });

export type StudentFee = z.infer<typeof StudentFeeSchema>;

export const studentFeeResource = defineResource({
  key: 'studentFee',
  title: 'Student Fee',
  titlePlural: 'Student Fees',
  apiPath: 'studentfees',
  routes: { overview: '/studentfees', detail: '/studentfee' },
  schema: StudentFeeSchema,
  createSchema: StudentFeeCreateSchema,
  updateSchema: StudentFeeUpdateSchema,
  filterSchema: z.object({}),
  sortable: ['intake', 'scholarship_code', ...STUDENT_FEE_AMOUNTS.map(([field]) => field), 'edit_timestamp'],
  defaultSort: [{ field: 'intake', direction: 'asc' }],
  access: { read: 'reader', write: 'administrator' },
  deletable: true,
  // A scholarship has a fee per intake: the code alone named every intake's fee alike.
  referenceField: ['intake', 'scholarship_code'],
  columns: [
    { field: 'intake', title: 'Intake', width: 90 },
    { field: 'scholarship_code', title: 'Scholarship' },
    ...STUDENT_FEE_AMOUNTS.map(([field, title]) => ({ field, title, format: 'money' as const })),
    { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
  ],
});
