import { z } from 'zod';
import type { FileKind } from '../common/files.js';
import { EmailConfigSchema } from '../mail/email-settings.js';

/**
 * Templates (DESIGN §7, issue 12): every text the product prints or sends, addressed by `internalname`. The API
 * holds the built-in defaults and the uploaded replacements; the web lists, downloads, uploads, checks and resets
 * them on the Configuration screen.
 */
export const TEMPLATE_KINDS = ['pdf', 'mail'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export const TemplateInfoSchema = z.object({
  id: z.number().int(),
  internalname: z.string(),
  displayname: z.string(),
  /** The name the template downloads under (and the name an upload is expected to have). */
  filename: z.string(),
  kind: z.enum(TEMPLATE_KINDS),
  /** Whether an uploaded replacement is in use (false: the built-in default). */
  customised: z.boolean(),
  uploaded_timestamp: z.string().nullable(),
  uploaded_user: z.string().nullable(),
  /** What the template can use, with an example value each (`invoice.lines[].amount`: an entry of a list). */
  variables: z.array(z.object({ name: z.string(), example: z.string() })),
});
export type TemplateInfo = z.infer<typeof TemplateInfoSchema>;

/**
 * `GET /config` (spec §3 Config): the version, the Email settings (never the password) and the templates. The
 * Email settings are a Developer's (spec §6: the Email tab is for developers only): an Administrator gets null.
 */
export const ConfigSchema = z.object({
  version: z.string(),
  email_config: EmailConfigSchema.nullable(),
  templates: z.array(TemplateInfoSchema),
});
export type Config = z.infer<typeof ConfigSchema>;

const internalname = z
  .string({ error: 'internalname is required' })
  .trim()
  .min(1, 'internalname is required')
  .max(100, 'internalname: at most 100 characters')
  .regex(/^[a-z0-9_]+$/, 'internalname: lower-case letters, digits and _ only');

/** The body of `POST /config/get_template` and `POST /config/reset_template`, and the query of the import. */
export const TemplateNameSchema = z.object({ internalname }).strict();

/** Largest template accepted by an upload (bytes): a template is a page of text, not a document. */
export const MAX_TEMPLATE_BYTES = 256 * 1024;

/** What a template upload may be: UTF-8 text, named `.liquid` (as downloaded) or `.txt`. */
export const TEMPLATE_FILE_KIND: FileKind = { mime: 'text/plain', extensions: ['liquid', 'txt'], label: 'Liquid template (UTF-8 text)' };

/** Beside the check's zip: the internal names of the templates that do not render, comma-separated (none: empty). */
export const TEMPLATES_FAILED_HEADER = 'X-Templates-Failed';

/** The answer of `POST /config/check_templates`' report, one line per template. */
export const CHECK_REPORT_FILENAME = 'report.txt';
