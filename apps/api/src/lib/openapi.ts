import { z } from 'zod';
import { APP_VERSION, API_BASE, apiPermissions, LoginSchema, resources, type AnyResource } from '@app/contracts';

type Operation = Record<string, unknown>;

const json = (schema: z.ZodType) => ({ 'application/json': { schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) } });
const errorResponse = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };

function resourceOperations(r: AnyResource): Record<string, Operation> {
  const row = json(r.schema);
  const filters = Object.keys(r.filterSchema.shape).map((name) => ({ name, in: 'query', schema: {} }));
  const ops: Record<string, Operation> = {
    [`GET /${r.apiPath}`]: {
      summary: `List ${r.titlePlural}`,
      parameters: [
        { name: 'sort', in: 'query', schema: { type: 'string' }, description: `field|asc or field|desc, comma-joined; fields: ${r.sortable.join(', ')}` },
        { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
        { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200 } },
        { name: 'search', in: 'query', schema: { type: 'string' } },
        ...filters,
      ],
      responses: { 200: { description: 'One page', content: { 'application/json': { schema: { $ref: '#/components/schemas/Page' } } } } },
    },
    [`GET /${r.apiPath}/:id`]: { summary: `Get a ${r.title}`, responses: { 200: { description: r.title, content: row } } },
    [`POST /${r.apiPath}`]: {
      summary: `Create a ${r.title}`,
      requestBody: { content: json(r.createSchema) },
      responses: { 201: { description: 'Created', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } } } } },
    },
    [`PUT /${r.apiPath}/:id`]: {
      summary: `Update a ${r.title} (changed fields plus id)`,
      parameters: [{ name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'the edit_timestamp seen' }],
      requestBody: { content: json(r.updateSchema) },
      responses: { 200: { description: r.title, content: row } },
    },
    [`DELETE /${r.apiPath}/:id`]: { summary: `Delete a ${r.title}`, responses: { 204: { description: 'Deleted' } } },
  };
  if (r.choice) {
    ops[`GET /${r.choice}/choice`] = { summary: `Choice list ${r.choice}`, responses: { 200: { description: '[{id, name}]' } } };
    ops[`GET /${r.choice}/choice_checksum`] = { summary: `Checksum of ${r.choice}`, responses: { 200: { description: '{checksum}' } } };
  }
  return ops;
}

const otherOperations: Record<string, Operation> = {
  'POST /auth/login': { summary: 'Log in', security: [], requestBody: { content: json(LoginSchema) }, responses: { 200: { description: '{user, token}' } } },
  'GET /auth/me': { summary: 'The logged-in user', responses: { 200: { description: '{user}' } } },
  'POST /auth/logout': { summary: 'Log out', responses: { 204: { description: 'Logged out' } } },
  'GET /config/version': { summary: 'Server version', responses: { 200: { description: '{version}' } } },
  'GET /openapi.json': { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } },
};

/** The OpenAPI document of every route in the permission table, built from the zod schemas. */
export function openApiDocument(): Record<string, unknown> {
  const described: Record<string, Operation> = Object.assign({}, otherOperations, ...resources.map(resourceOperations));
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [key, access] of Object.entries(apiPermissions)) {
    const [method = '', route = ''] = key.split(' ');
    const operation = described[key] ?? { summary: key };
    const path = route.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[method.toLowerCase()] = {
      ...operation,
      ...(route.includes(':id') ? { parameters: [idParameter, ...((operation.parameters as unknown[]) ?? [])] } : {}),
      'x-required-level': access,
      responses: { ...(operation.responses as object), 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Scholarship Office API', version: APP_VERSION },
    servers: [{ url: API_BASE }],
    security: [{ cookie: [] }, { bearer: [] }],
    components: {
      securitySchemes: {
        cookie: { type: 'apiKey', in: 'cookie', name: 'session' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
      schemas: {
        Error: { type: 'object', required: ['message'], properties: { message: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } } },
        Page: {
          type: 'object',
          properties: {
            data: { type: 'array', items: { type: 'object' } },
            links: { type: 'object', properties: { pagination: { type: 'object', properties: Object.fromEntries(['total', 'per_page', 'current_page', 'last_page', 'from', 'to'].map((k) => [k, { type: 'integer' }])) } } },
          },
        },
      },
    },
    paths,
  };
}
