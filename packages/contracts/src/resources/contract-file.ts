import { z } from 'zod';
import { defineResource } from '../common/resource.js';
import { optionalText, requiredRef, requiredText } from '../common/fields.js';
import { FILE_KINDS, type FileKind } from '../common/files.js';

/** Largest document accepted by an upload (bytes). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

/**
 * What a contract document may be (decision 008): scans and photos of papers, signed PDFs, office documents
 * and plain text. No formats that can carry scripts or macros (HTML, SVG, docm/xlsm, legacy .doc/.xls).
 */
export const DOCUMENT_FILE_KINDS: readonly FileKind[] = [
  FILE_KINDS.pdf,
  FILE_KINDS.jpeg,
  FILE_KINDS.png,
  FILE_KINDS.docx,
  FILE_KINDS.xlsx,
  FILE_KINDS.odt,
  FILE_KINDS.ods,
  FILE_KINDS.text,
];

export const ContractFileSchema = z.object({
  id: z.number().int(),
  contract_id: z.number().int(),
  ft_id: z.number().int(),
  file_type: z.string(),
  description: z.string().nullable(),
  filename: z.string(),
  size: z.number().int().nullable(),
  mime_type: z.string().nullable(),
  uploaded: z.boolean(),
  edit_timestamp: z.string().nullable(),
});

export const ContractFileCreateSchema = z.object({
  contract_id: requiredRef('Contract'),
  // Contract file type default 1 (spec §9).
  ft_id: requiredRef('File type').default(1),
  description: optionalText('Description', 500),
  filename: requiredText('File name', 200),
});

export const ContractFileUpdateSchema = z.object({
  id: z.number().int().positive(),
  ft_id: requiredRef('File type').optional(),
  description: optionalText('Description', 500),
});

export const ContractFileFilterSchema = z.object({
  contract_id: z.coerce.number({ error: 'contract_id must be a number' }).int().optional(),
});

export type ContractFile = z.infer<typeof ContractFileSchema>;

export const contractFileResource = defineResource({
  key: 'contractFile',
  title: 'Document',
  titlePlural: 'Documents',
  apiPath: 'contract_files',
  routes: { overview: '/contract_files', detail: '/contract_file' },
  schema: ContractFileSchema,
  createSchema: ContractFileCreateSchema,
  updateSchema: ContractFileUpdateSchema,
  filterSchema: ContractFileFilterSchema,
  sortable: ['filename', 'file_type', 'description', 'size', 'edit_timestamp'],
  defaultSort: [{ field: 'edit_timestamp', direction: 'desc' }],
  access: { read: 'reader', write: 'user' },
  deletable: true,
  referenceField: 'filename',
});
