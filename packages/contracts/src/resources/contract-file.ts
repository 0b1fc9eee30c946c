import { z } from 'zod';
import { defineAction } from '../common/actions.js';
import { defineResource } from '../common/resource.js';
import { optionalText, requiredRef, requiredText, wholeNumber } from '../common/fields.js';
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
  contract_id: wholeNumber('contract_id').optional(),
});

export type ContractFile = z.infer<typeof ContractFileSchema>;

/** The file of a document record (spec §7: `POST /contract_files/{id}/upload`, multipart field `file`). */
const upload = defineAction({
  name: 'upload',
  label: 'Upload',
  scope: 'record',
  input: z.object({}),
  result: 'record',
  changesRecord: true,
  level: 'user',
  upload: { field: 'file', maxBytes: MAX_UPLOAD_BYTES, types: DOCUMENT_FILE_KINDS },
  failureText: 'uploading document',
});

const download = defineAction({
  name: 'download',
  label: 'Download',
  scope: 'record',
  input: z.object({}),
  result: 'file',
  level: 'reader',
  offeredWhen: (row) => (row.uploaded ? null : 'No file has been uploaded for this document yet'),
  failureText: 'downloading document',
});

/** The document's own actions, for the API to bind its service functions to. */
export const contractFileActions = { upload, download };

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
  columns: [
    { field: 'filename', title: 'File' },
    { field: 'file_type', title: 'Type' },
    { field: 'description', title: 'Description' },
    { field: 'size', title: 'Size', format: 'number' },
    { field: 'edit_timestamp', title: 'Last Edit', format: 'datetime' },
  ],
  actions: [upload, download],
});
