import type { Level } from './roles.js';
import { actionPath, runsAsBatch } from '../common/actions.js';
import { CHOICE_LISTS, isSearchedChoiceList } from '../common/choice.js';
import type { AnyResource } from '../common/resource.js';
import { actionsOf } from '../common/resource-actions.js';
import { resources } from '../resources/index.js';

export type Access = Level | 'public';

/**
 * The one permission table (spec §6). Keys are `METHOD /path` with Express-style parameters,
 * relative to /api/v1.0. The API enforces it on every route; the web hides what it forbids.
 */
function resourceRoutes(r: AnyResource): Record<string, Access> {
  const base = `/${r.apiPath}`;
  const routes: Record<string, Access> = {
    [`GET ${base}`]: r.access.read,
    [`GET ${base}/:id`]: r.access.read,
  };
  if (!r.readOnly) {
    routes[`POST ${base}`] = r.access.write;
    routes[`PUT ${base}/:id`] = r.access.write;
    // Also where records can never be deleted: the route is there to say so.
    routes[`DELETE ${base}/:id`] = r.access.write;
  }
  for (const action of actionsOf(r)) {
    if (action.scope === 'record') routes[`POST ${actionPath(r.apiPath, action, 'record')}`] = action.level;
    if (action.scope === 'list') routes[`POST ${actionPath(r.apiPath, action, 'list')}`] = action.level;
    if (runsAsBatch(action)) routes[`POST ${actionPath(r.apiPath, action, 'batch')}`] = action.level;
    // Bulk Edit keeps DESIGN §4's path `POST /{resource}/bulk_edit` beside the batch one.
    if (action.scope === 'selection') routes[`POST ${actionPath(r.apiPath, action, 'list')}`] = action.level;
    if (action.specPath) routes[action.specPath] = action.level;
    if (action.batchPath && runsAsBatch(action)) routes[action.batchPath] = action.level;
  }
  return routes;
}

/** Routes of the batch runs (DESIGN §10): the service lets each caller see and steer only their own runs. */
const batchRunRoutes: Record<string, Access> = {
  'GET /batch_runs': 'reader',
  'GET /batch_runs/:id': 'reader',
  'GET /batch_runs/:id/result': 'reader',
  'POST /batch_runs/:id/retry_failed': 'user',
  'POST /batch_runs/:id/cancel': 'user',
  'POST /batch_runs/:id/confirm': 'user',
};

const choiceRoutes = (name: string): Record<string, Access> => ({
  [`GET /${name}/choice`]: 'reader',
  [`GET /${name}/choice_checksum`]: 'reader',
  ...(isSearchedChoiceList(name) ? { [`GET /${name}/choice/search`]: 'reader' as const } : {}),
});

export const apiPermissions: Readonly<Record<string, Access>> = {
  'POST /auth/login': 'public',
  'GET /auth/me': 'reader',
  'POST /auth/logout': 'reader',
  'GET /config/version': 'reader',
  // Configuration (spec §6, issue 12): the screen and its changes are for Administrators and Developers; any
  // logged-in user may download a template (issue 18 point 5). The Email tab's routes come with issue 12 part B.
  'GET /config': 'administrator',
  'POST /config/get_template': 'reader',
  'POST /config/import': 'administrator',
  'POST /config/check_templates': 'administrator',
  'POST /config/reset_template': 'administrator',
  'GET /openapi.json': 'reader',
  ...Object.assign({}, ...resources.map(resourceRoutes), ...CHOICE_LISTS.map(choiceRoutes)),
  ...batchRunRoutes,
  // The Email settings (issue 12): Developer only, the password never answered.
  'GET /config/email': 'developer',
  'PUT /config/email': 'developer',
  'POST /config/email/send_test': 'developer',
  // Imports (issue 16): the templates and results are downloads, for everyone logged in (spec §6, issue 18 point 5).
  'GET /contracts/import_template': 'reader',
  'GET /contracts/import_bankinfo_template': 'reader',
  'POST /contracts/get_import_results': 'reader',
  // The DreamApply settings (issue 16): Developer only, like the Email tab; the key is never answered.
  'GET /config/dream_apply': 'developer',
  'PUT /config/dream_apply': 'developer',
  // The Scholarship overview (by scholarship), spec §2: a read-only summary of the payments.
  'GET /scholarship_payments/by_scholarship': 'reader',
  // What Export Payments would export, before it does (decision 055): asked by whoever may export.
  'POST /scholarship_payments/export_payments/summary': 'user',
  // Anyone may set their own password through PUT /users/{id}; the users service refuses the rest.
  'PUT /users/:id': 'reader',
};

/** Gated elements of the web that are not a resource's New / Edit / Delete. */
export const uiPermissions = {
  'menu.manage': 'administrator',
  'route.config': 'administrator',
  'config.email': 'developer',
} as const satisfies Record<string, Level>;

export type UiElement = keyof typeof uiPermissions;
