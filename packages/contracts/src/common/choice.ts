import { z } from 'zod';

export const ChoiceSchema = z.object({ id: z.union([z.number(), z.string()]), name: z.string() });
export type Choice = z.infer<typeof ChoiceSchema>;
export interface ChoiceChecksum {
  checksum: string;
}
