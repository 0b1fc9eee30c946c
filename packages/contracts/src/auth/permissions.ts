import type { Level } from './roles.js';
import type { AnyResource } from '../common/resource.js';
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
  return routes;
}

/** Choice lists (spec §7) served so far: `GET /{name}/choice` and `/{name}/choice_checksum`, for everyone. */
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

const choiceRoutes = (name: string): Record<string, Access> => ({
  [`GET /${name}/choice`]: 'reader',
  [`GET /${name}/choice_checksum`]: 'reader',
});

export const apiPermissions: Readonly<Record<string, Access>> = {
  'POST /auth/login': 'public',
  'GET /auth/me': 'reader',
  'POST /auth/logout': 'reader',
  'GET /config/version': 'reader',
  'GET /openapi.json': 'reader',
  ...Object.assign({}, ...resources.map(resourceRoutes), ...CHOICE_LISTS.map(choiceRoutes)),
  'PUT /contracts/:id/update_status': 'user',
  'POST /contracts/bulk_edit': 'administrator',
  'POST /contracts/download_report': 'reader',
  'POST /students/download_report': 'reader',
  'POST /contract_files/:id/upload': 'user',
  'POST /contract_files/:id/download': 'reader',
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
