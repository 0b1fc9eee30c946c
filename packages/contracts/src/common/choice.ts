import { z } from 'zod';

export const ChoiceSchema = z.object({ id: z.union([z.number(), z.string()]), name: z.string() });
export type Choice = z.infer<typeof ChoiceSchema>;
export interface ChoiceChecksum {
  checksum: string;
}

/**
 * The choice lists (spec §7) served so far: `GET /{name}/choice` and `/{name}/choice_checksum`, for everyone.
 * Declared here once; the API must give each a source (its type makes a missing one a compile error).
 */
export const CHOICE_LISTS = [
  'countries',
  'logging_types',
  'userroles',
  'users',
  'programs',
  'universities',
  'scholarships',
  'scholarships_type',
  'scholarships_region',
  'students',
  'contracts',
  'contract_status',
  'contracts_intake',
  'contracts_round',
  'contracts_year',
  'file_types',
] as const;
export type ChoiceListName = (typeof CHOICE_LISTS)[number];
