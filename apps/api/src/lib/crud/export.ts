import type { Request, Response } from 'express';
import { z } from 'zod';
import { parseInput } from '../errors.js';
import type { SheetColumn } from '../files/xlsx.js';
import { sendXlsx } from '../files/xlsx.js';
import type { CrudService } from './crud-service.js';
import { parseListQuery } from './list-query.js';

/** Body of an export (DESIGN §4): the selection (`ids`) or the overview's current filter. */
export const ExportRequestSchema = z.object({
  ids: z.array(z.number().int().positive()).max(50_000, 'At most 50000 rows can be selected').optional(),
  filter: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});

/** Streams the selected rows, or every row the filter matches, as an xlsx file. */
export async function exportXlsx(service: CrudService, req: Request, res: Response, file: { filename: string; sheet: string; columns: SheetColumn[] }): Promise<void> {
  const body = parseInput(ExportRequestSchema, req.body ?? {}, 'export');
  const filter = Object.fromEntries(Object.entries(body.filter ?? {}).filter(([k]) => k !== 'page' && k !== 'per_page').map(([k, v]) => [k, String(v)]));
  const query = parseListQuery(service.config.resource, filter);
  const ids = body.ids && body.ids.length > 0 ? body.ids : undefined;
  await sendXlsx(res, file.filename, file.sheet, file.columns, service.iterate(query, ids));
}
