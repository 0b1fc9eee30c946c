import { z } from 'zod';
import { defineAction, type AnyAction } from './actions.js';
import type { AnyResource } from './resource.js';

/** Body of an export (DESIGN §4): the selection (`ids`) or the overview's current filter. */
export const ExportRequestSchema = z.object({
  ids: z.array(z.number().int().positive()).max(50_000, 'At most 50000 rows can be selected').optional(),
  filter: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});

/**
 * Bulk Edit as an action over a selection (spec §2, §5; DESIGN §4): the declared fields, each optional; at
 * least one must change (an empty change set is refused). Every row goes through the resource's own update,
 * with its rules and hooks, in a transaction of its own; a row changed since the client loaded it is refused.
 */
export function bulkEditAction(resource: AnyResource): AnyAction | undefined {
  const bulk = resource.bulkEdit;
  if (!bulk) return undefined;
  const shape = resource.updateSchema.shape as Record<string, z.ZodType>;
  const changes = z
    .strictObject(Object.fromEntries(bulk.fields.map((f) => [f, shape[f]!.optional()])))
    .refine((c) => Object.values(c).some((v) => v !== undefined), 'Change at least one field');
  return defineAction({
    name: 'bulk_edit',
    label: 'Bulk Edit',
    scope: 'selection',
    input: z.object({ changes }),
    result: 'batch',
    level: bulk.level,
    ...(bulk.views ? { views: bulk.views } : {}),
    versioned: true,
    failureText: 'saving update',
  });
}

/** The xlsx export of the selection or of the overview's filter, with the resource's columns. */
export function exportAction(resource: AnyResource): AnyAction | undefined {
  if (!resource.export) return undefined;
  return defineAction({
    name: 'download_report',
    label: resource.export.label,
    scope: 'list',
    input: ExportRequestSchema,
    result: 'file',
    level: 'reader',
    filename: resource.export.filename,
    failureText: `exporting ${resource.export.filename}`,
  });
}

const cache = new WeakMap<AnyResource, readonly AnyAction[]>();

/**
 * Every action of a resource: those it declares and Bulk Edit, with the export where it has one — before the list
 * action its `before` names, else before the first list action (the spec's menus name Export Selection first).
 */
export function actionsOf(resource: AnyResource): readonly AnyAction[] {
  let actions = cache.get(resource);
  if (!actions) {
    const declared = [...(resource.actions ?? [])];
    const exported = exportAction(resource);
    if (exported) {
      const before = resource.export?.before;
      const at = declared.findIndex((a) => (before ? a.name === before : a.scope === 'list'));
      declared.splice(at < 0 ? declared.length : at, 0, exported);
    }
    actions = [...declared, bulkEditAction(resource)].filter((a): a is AnyAction => a !== undefined);
    cache.set(resource, actions);
  }
  return actions;
}

export function findAction(resource: AnyResource, name: string): AnyAction | undefined {
  return actionsOf(resource).find((a) => a.name === name);
}
