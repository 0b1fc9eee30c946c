import type { Router } from 'express';
import { actionsOf, viewExportColumns, viewsOf, type AnyResource } from '@app/contracts';
import type { AppContext } from '../context.js';
import type { CrudService } from '../crud/crud-service.js';
import { filterQueryOf } from '../crud/list-query.js';
import { sendXlsx } from '../files/xlsx.js';
import { listAction, recordAction, type ActionImpl } from './types.js';

/**
 * Everything the API serves for one resource: its service, the service functions of its actions, and the
 * few routes that are neither CRUD nor an action. The router and the batch workers both read it.
 */
/** Whether the action is an import (a list action done row by row from a file's rows). */
export function isImport(mod: Pick<ResourceModule, 'actions'>, action: { name: string }): boolean {
  return mod.actions.get(action.name)?.kind === 'import';
}

export interface ResourceModule {
  resource: AnyResource;
  service: CrudService;
  actions: ReadonlyMap<string, ActionImpl>;
  /** Routes beyond CRUD and actions (rare). */
  routes?: Router;
}

/** Bulk Edit's row: the resource's own update, with the version the client saw, logged as a bulk edit. */
function bulkEditImpl(service: CrudService, resource: AnyResource): [string, ActionImpl] | undefined {
  const action = actionsOf(resource).find((a) => a.name === 'bulk_edit');
  if (!action) return undefined;
  return recordAction(action, async (tx, actor, target, input) => {
    const { changes } = input as { changes: Record<string, unknown> };
    const before = target.row;
    const after = await service.update(target.id, { id: target.id, ...changes }, target.version, actor, { tx, eventType: 'bulkEdit' });
    const changed = Object.keys(changes).filter((f) => JSON.stringify(after[f] ?? null) !== JSON.stringify(before[f] ?? null));
    return { eventRecorded: true, message: changed.length > 0 ? `Changed ${changed.join(', ')}` : 'Nothing to change' };
  });
}

/** The xlsx export of the selection or of the overview's filter, with the resource's declared columns. */
function exportImpl(service: CrudService, resource: AnyResource): [string, ActionImpl] | undefined {
  const action = actionsOf(resource).find((a) => a.name === 'download_report');
  const file = resource.export;
  if (!action || !file) return undefined;
  return listAction(action, async (_db, _actor, input, { ctx }) => {
    const body = input as { ids?: number[]; filter?: Record<string, string | number | boolean> };
    // The columns and titles of the view exported from (its fixed filter is in the body), as the overview shows them.
    const view = viewsOf(resource).find((v) => v.fixedFilter && Object.entries(v.fixedFilter).every(([k, value]) => String(body.filter?.[k]) === value));
    const columns = viewExportColumns(resource.columns, view);
    const query = filterQueryOf(resource, body.filter);
    const ids = body.ids && body.ids.length > 0 ? body.ids : undefined;
    const scope = ids ? `${ids.length} selected` : 'the filtered list';
    return {
      eventType: 'export',
      message: `Exported ${file.filename} (${scope})`,
      file: {
        filename: file.filename,
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        write: (res) =>
          sendXlsx(res, file.filename, file.sheet, columns, service.iterate(query, columns.map((c) => c.field), ids), { timeZone: ctx.env.APP_TIMEZONE }),
      },
    };
  });
}

/**
 * A resource's module: its own action functions plus the generic ones its declaration asks for (Bulk Edit,
 * export). A declared action without a function, or a function without a declaration, stops the start.
 */
export function defineModule(
  _ctx: AppContext,
  service: CrudService,
  own: readonly [string, ActionImpl][] = [],
  routes?: Router,
): ResourceModule {
  const resource = service.config.resource;
  const impls = new Map<string, ActionImpl>([...own, bulkEditImpl(service, resource), exportImpl(service, resource)].filter((e): e is [string, ActionImpl] => e !== undefined));
  const declared = actionsOf(resource).map((a) => a.name);
  for (const name of declared) if (!impls.has(name)) throw new Error(`${resource.key}: action "${name}" has no service function`);
  for (const name of impls.keys()) if (!declared.includes(name)) throw new Error(`${resource.key}: service function "${name}" has no declaration`);
  for (const action of actionsOf(resource)) {
    const impl = impls.get(action.name)!;
    const expected = action.scope === 'list' ? 'list' : 'record';
    // An import is a list action done row by row.
    if (impl.kind !== expected && !(impl.kind === 'import' && action.scope === 'list')) throw new Error(`${resource.key}: action "${action.name}" is a ${action.scope} action but its function is a ${impl.kind} one`);
  }
  return { resource, service, actions: impls, routes };
}
