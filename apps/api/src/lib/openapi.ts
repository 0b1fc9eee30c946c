import { z } from 'zod';
import {
  actionPath,
  actionsOf,
  API_BASE,
  apiPermissions,
  APP_VERSION,
  batchRequestSchema,
  ExportRequestSchema,
  BatchRunSchema,
  BatchRunListSchema,
  BatchStartedSchema,
  CHOICE_LISTS,
  InvoiceChoiceParamsSchema,
  EmailConfigSchema,
  DreamApplyConfigSchema,
  DreamApplyConfigUpdateSchema,
  ImportResultsRequestSchema,
  EmailConfigUpdateSchema,
  SendTestMailResultSchema,
  isSearchedChoiceList,
  SEARCHED_CHOICE_LIMIT,
  ChoiceSchema,
  ConfigSchema,
  LoginSchema,
  resources,
  runsAsBatch,
  SessionUserSchema,
  TemplateInfoSchema,
  TemplateNameSchema,
  type AnyAction,
  type AnyResource,
  ScholarshipOverviewRowSchema,
} from '@app/contracts';

type Operation = Record<string, unknown>;

const ImportStartedSchema = z.object({ filename: z.string(), run_id: z.number().int() });
type Schema = Record<string, unknown>;

const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): Schema => z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Schema;
const body = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema: schemaOf(schema, 'input') } } });
const jsonResponse = (description: string, schema: z.ZodType | Schema) => ({
  description,
  content: { 'application/json': { schema: schema instanceof z.ZodType ? schemaOf(schema, 'output') : schema } },
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const fileResponse = (description: string) => ({
  description,
  headers: { 'Content-Disposition': { schema: { type: 'string' }, description: 'attachment; filename="…"; filename*=UTF-8\'\'…' } },
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
});
const ifMatch = { name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'the edit_timestamp the client saw' };
const requestKey = {
  name: 'Idempotency-Key',
  in: 'header',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,100}$' },
  description: 'optional; the same request sent again with the same key is done once and answered as the first (decision 050)',
};
const requiredIfMatch = { ...ifMatch, required: true, description: 'the edit_timestamp the client saw (428 without it, 409 when the record changed since)' };
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };

/** `{data, links: {pagination}}` of a resource's rows. */
function pageOf(r: AnyResource): Schema {
  return {
    type: 'object',
    required: ['data', 'links'],
    properties: { data: { type: 'array', items: schemaOf(r.schema, 'output') }, links: { type: 'object', properties: { pagination: ref('Pagination') } } },
  };
}

function actionOperations(r: AnyResource, action: AnyAction): Record<string, Operation> {
  const row = jsonResponse(r.title, r.schema);
  const answer =
    action.result === 'record'
      ? row
      : action.result === 'file'
        ? fileResponse(action.filename ?? 'the file')
        : action.result === 'message'
          ? jsonResponse('What was done', z.object({ message: z.string() }))
          : jsonResponse('The batch run started', BatchStartedSchema);
  const describe = (what: string) => `${action.label}${what}${action.offeredWhen ? ' (409 where it is not offered, with the reason)' : ''}`;
  const ops: Record<string, Operation> = {};
  const uploadBody = action.upload
    ? {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', required: [action.upload.field], properties: { [action.upload.field]: { type: 'string', format: 'binary' } } },
          },
        },
      }
    : undefined;
  if (action.scope === 'record') {
    const parameters = [action.versioned ? requiredIfMatch : ifMatch, ...(action.result === 'file' ? [] : [requestKey])];
    const operation = { summary: describe(` on one ${r.title}`), parameters, requestBody: uploadBody ?? body(action.input), responses: { 200: answer } };
    ops[`POST ${actionPath(r.apiPath, action, 'record')}`] = operation;
    if (action.specPath) ops[action.specPath] = { ...operation, summary: `${operation.summary} (the spec's path)` };
  }
  if (runsAsBatch(action)) {
    const batch = {
      summary: `${action.batch?.label ?? action.label} on selected ${r.titlePlural}: a batch run (follow it at GET /batch_runs/{run_id})`,
      requestBody: body(batchRequestSchema(action.input)),
      responses: { 202: jsonResponse('The batch run started', BatchStartedSchema) },
    };
    ops[`POST ${actionPath(r.apiPath, action, 'batch')}`] = batch;
    if (action.scope === 'selection') ops[`POST ${actionPath(r.apiPath, action, 'list')}`] = batch;
    if (action.batchPath) ops[action.batchPath] = { ...batch, summary: `${batch.summary} (the spec's path)` };
  }
  if (action.scope === 'list' && action.result === 'batch') {
    // An import: the rows read become a preview run; its confirmation (POST /batch_runs/{id}/confirm) does them.
    ops[`POST ${actionPath(r.apiPath, action, 'list')}`] = {
      summary: `Import: ${action.label} into ${r.titlePlural}; answers the file name and the preview run (follow it at GET /batch_runs/{run_id}, confirm it to import)`,
      requestBody: uploadBody ?? body(action.input),
      responses: { 202: jsonResponse('{filename, run_id}', ImportStartedSchema) },
    };
  } else if (action.scope === 'list') {
    ops[`POST ${actionPath(r.apiPath, action, 'list')}`] = { summary: describe(` on ${r.titlePlural}`), requestBody: body(action.input), responses: { 200: answer } };
  }
  return ops;
}

function resourceOperations(r: AnyResource): Record<string, Operation> {
  const filters = Object.entries(r.filterSchema.shape).map(([name, schema]) => ({ name, in: 'query', schema: schemaOf(schema as z.ZodType, 'input') }));
  const row = jsonResponse(r.title, r.schema);
  const ops: Record<string, Operation> = {
    [`GET /${r.apiPath}`]: {
      summary: `List ${r.titlePlural}`,
      parameters: [
        { name: 'sort', in: 'query', schema: { type: 'string' }, description: `field|asc or field|desc, comma-joined; fields: ${r.sortable.join(', ')}` },
        { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
        { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200 } },
        { name: 'search', in: 'query', schema: { type: 'string' }, description: 'the quick filter' },
        {
          name: 'count',
          in: 'query',
          schema: { type: 'string', enum: ['exact'] },
          description: 'count the rows exactly; without it an unfiltered big table answers the planner\'s estimate (pagination.estimated)',
        },
        ...filters,
      ],
      responses: { 200: jsonResponse('One page', pageOf(r)) },
    },
    [`GET /${r.apiPath}/:id`]: { summary: `Get a ${r.title}`, responses: { 200: row } },
    [`POST /${r.apiPath}`]: {
      summary: `Create a ${r.title}`,
      parameters: [requestKey],
      requestBody: body(r.createSchema),
      responses: { 201: jsonResponse('Created', z.object({ id: z.number().int() })) },
    },
    [`PUT /${r.apiPath}/:id`]: {
      summary: `Update a ${r.title} (changed fields plus id)`,
      parameters: [requiredIfMatch],
      requestBody: body(r.updateSchema),
      responses: { 200: row },
    },
    [`DELETE /${r.apiPath}/:id`]: {
      summary: `Delete a ${r.title}; with If-Match, only the version the client saw (409 when it changed since)`,
      parameters: [ifMatch],
      responses: { 204: { description: 'Deleted' } },
    },
  };
  for (const action of actionsOf(r)) Object.assign(ops, actionOperations(r, action));
  return ops;
}

/** The optional parameters of spec §7 a choice list takes (decision 020): the invoice lists' are invoice filter fields. */
const CHOICE_PARAMS: Partial<Record<string, readonly { name: string; schema: Record<string, unknown> }[]>> = Object.fromEntries(
  (['invoices', 'invoices_credit_notes'] as const).map((name) => [
    name,
    [
      ...Object.keys(InvoiceChoiceParamsSchema.shape).map((field) => ({
        name: field,
        schema: field.endsWith('_id') ? { type: 'integer', minimum: 1 } : { type: 'string', enum: ['true', 'false'] },
      })),
      { name: 'search', schema: { type: 'string', maxLength: 100 } },
      { name: 'id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } },
    ],
  ]),
);
const choiceParameters = (name: string) => (CHOICE_PARAMS[name] ?? []).map((p) => ({ ...p, in: 'query' as const }));

const choiceOperations: Record<string, Operation> = Object.fromEntries(
  CHOICE_LISTS.flatMap((name) => [
    [
      `GET /${name}/choice`,
      {
        summary: CHOICE_PARAMS[name] ? `Choice list ${name}: its first ${SEARCHED_CHOICE_LIMIT} matches of the parameters` : `Choice list ${name}`,
        ...(CHOICE_PARAMS[name] && { parameters: choiceParameters(name) }),
        responses: { 200: jsonResponse('[{id, name}]', z.array(ChoiceSchema)) },
      },
    ],
    [
      `GET /${name}/choice_checksum`,
      {
        summary: `Checksum of ${name}`,
        ...(CHOICE_PARAMS[name] && { parameters: choiceParameters(name) }),
        responses: { 200: jsonResponse('{checksum}', z.object({ checksum: z.string() })) },
      },
    ],
    ...(isSearchedChoiceList(name)
      ? [
          [
            `GET /${name}/choice/search`,
            {
              summary: `Search ${name}: at most ${SEARCHED_CHOICE_LIMIT} choices matching the text, plus the one with id`,
              parameters: CHOICE_PARAMS[name]
                ? choiceParameters(name)
                : [
                    { name: 'search', in: 'query', schema: { type: 'string', maxLength: 100 } },
                    { name: 'id', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } },
                  ],
              responses: { 200: jsonResponse('[{id, name}]', z.array(ChoiceSchema)) },
            },
          ] as const,
        ]
      : []),
  ]),
);

const run = jsonResponse('The batch run', BatchRunSchema);
const otherOperations: Record<string, Operation> = {
  'POST /auth/login': {
    summary: 'Log in',
    security: [],
    requestBody: body(LoginSchema),
    responses: {
      200: jsonResponse('The user, the office\'s time zone (APP_TIMEZONE), and a token for Authorization: Bearer', z.object({ user: SessionUserSchema, timezone: z.string(), token: z.string() })),
    },
  },
  'GET /auth/me': {
    summary: 'The logged-in user, and the office\'s time zone every time is shown in',
    responses: { 200: jsonResponse('{user, timezone}', z.object({ user: SessionUserSchema, timezone: z.string() })) },
  },
  'POST /auth/logout': { summary: 'Log out', responses: { 204: { description: 'Logged out' } } },
  'GET /scholarship_payments/by_scholarship': {
    summary: 'Scholarship overview (by scholarship): count and sum of planned, numbered and exported payments per scholarship, intake and type',
    parameters: [
      { name: 'intake', in: 'query', schema: { type: 'integer' } },
      { name: 'scholarship_payment_type_id', in: 'query', schema: { type: 'integer' } },
    ],
    responses: { 200: jsonResponse('{data}', z.object({ data: z.array(ScholarshipOverviewRowSchema) })) },
  },
  'POST /scholarship_payments/export_payments/summary': {
    summary: 'What Export Payments would export for the same body (selection or filter): how many payments, how much; nothing is marked',
    requestBody: body(ExportRequestSchema),
    responses: { 200: jsonResponse('{count, total, message}', z.object({ count: z.number().int(), total: z.number(), message: z.string() })) },
  },
  'GET /config/version': { summary: 'Server version', responses: { 200: jsonResponse('{version}', z.object({ version: z.string() })) } },
  'GET /config': { summary: 'Configuration: server version and the template list (Administrator and Developer)', responses: { 200: jsonResponse('{version, templates}', ConfigSchema) } },
  'POST /config/get_template': {
    summary: "A template's current text, byte for byte (the upload, else the built-in default)",
    requestBody: body(TemplateNameSchema),
    responses: { 200: { description: 'The template file (text/plain, UTF-8)', content: { 'text/plain': { schema: { type: 'string' } } } } },
  },
  'POST /config/import': {
    summary: 'Upload a replacement template (multipart, field file); accepted only if it renders with its sample data',
    parameters: [{ name: 'internalname', in: 'query', required: true, schema: { type: 'string' } }],
    requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] } } } },
    responses: { 200: jsonResponse('The template, now uploaded', TemplateInfoSchema) },
  },
  'POST /config/reset_template': {
    summary: 'Go back to the built-in default of a template',
    requestBody: body(TemplateNameSchema),
    responses: { 200: jsonResponse('The template, now the default', TemplateInfoSchema) },
  },
  'POST /config/check_templates': {
    summary: 'Every template rendered from its sample data (PDFs, .eml) and report.txt, as a zip',
    requestBody: body(z.object({}).strict()),
    responses: { 200: fileResponse('templates-check.zip') },
  },
  'GET /config/email': { summary: 'The Email settings (Developer): never the password, only smtp_password_set', responses: { 200: jsonResponse('email_config', EmailConfigSchema) } },
  'PUT /config/email': {
    summary: 'Save the Email settings (Developer); an empty password keeps the stored one',
    parameters: [ifMatch],
    requestBody: body(EmailConfigUpdateSchema),
    responses: { 200: jsonResponse('email_config', EmailConfigSchema) },
  },
  'POST /config/email/send_test': {
    summary: 'Queue a test mail to the test address (see the Outbox)',
    requestBody: body(z.object({}).strict()),
    responses: { 200: jsonResponse('{message, outbox_id}', SendTestMailResultSchema) },
  },
  'GET /openapi.json': { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } },
  'GET /batch_runs': { summary: "The caller's own batch runs, newest first (the last 20), with their counts", responses: { 200: jsonResponse('The runs', BatchRunListSchema) } },
  'GET /batch_runs/:id': {
    summary: 'A batch run: status, counts and every row so far, or only the refused rows (rows=failed) (the starter or an Administrator)',
    parameters: [{ name: 'rows', in: 'query', schema: { type: 'string', enum: ['all', 'failed'], default: 'all' } }],
    responses: { 200: run },
  },
  'GET /config/dream_apply': { summary: 'The DreamApply settings (Developer only): base URL and whether a key is set; the key is never answered', responses: { 200: jsonResponse('{base_url, api_key_set, edit_timestamp}', DreamApplyConfigSchema) } },
  'PUT /config/dream_apply': {
    summary: 'Saves the DreamApply settings (Developer only); an empty or absent api_key keeps the stored one',
    requestBody: body(DreamApplyConfigUpdateSchema),
    responses: { 200: jsonResponse('The settings as saved', DreamApplyConfigSchema) },
  },
  'GET /contracts/import_template': { summary: 'The contract import template (xlsx: columns, an example row, choice lists, an explanation sheet)', responses: { 200: fileResponse('Contract_Import_Template.xlsx') } },
  'GET /contracts/import_bankinfo_template': { summary: 'The bank-info import template (xlsx)', responses: { 200: fileResponse('Bank_Info_Import_Template.xlsx') } },
  'POST /contracts/get_import_results': {
    summary: 'The results of the latest import of a file (xlsx: every input row with its outcome)',
    requestBody: body(ImportResultsRequestSchema),
    responses: { 200: fileResponse('Import_results_{filename}.xlsx') },
  },
  'GET /batch_runs/:id/result': { summary: "A batch run's rows and outcomes as xlsx", responses: { 200: fileResponse('Batch_{id}_{label}.xlsx') } },
  'POST /batch_runs/:id/retry_failed': { summary: 'Do again the failed rows of a finished run whose failure may pass (409 when none can: refused rows would be refused again)', responses: { 200: run } },
  'POST /batch_runs/:id/cancel': { summary: 'Cancel a run: rows not yet done stay undone', responses: { 200: run } },
  'POST /batch_runs/:id/confirm': { summary: 'Do for real what a finished preview (dry run) showed', responses: { 202: jsonResponse('The new run', BatchStartedSchema) } },
};

const errorResponse = { description: 'Error', content: { 'application/json': { schema: ref('Error') } } };

/**
 * The OpenAPI document of every route in the permission table (CRUD, actions, batch runs), built from the zod
 * schemas of `packages/contracts`. A route without a description here fails the start: the test of the
 * document walks the permission table.
 */
export function openApiDocument(): Record<string, unknown> {
  const described: Record<string, Operation> = Object.assign({}, otherOperations, choiceOperations, ...resources.map(resourceOperations));
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [key, access] of Object.entries(apiPermissions)) {
    const operation = described[key];
    if (!operation) throw new Error(`${key} has no OpenAPI description (apps/api/src/lib/openapi.ts)`);
    const [method = '', route = ''] = key.split(' ');
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
    info: {
      title: 'Scholarship Office API',
      version: APP_VERSION,
      description:
        'Any authenticated call may carry X-User-Id, the id of the user the caller believes is logged in: when the session is another user\'s, the call is refused (409) and nothing is done.',
    },
    servers: [{ url: API_BASE }],
    security: [{ cookie: [] }, { bearer: [] }],
    components: {
      securitySchemes: {
        cookie: { type: 'apiKey', in: 'cookie', name: 'session' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['message'],
          properties: {
            message: { type: 'string' },
            errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
            request_id: { type: 'string' },
          },
        },
        Pagination: {
          type: 'object',
          properties: {
            ...Object.fromEntries(['total', 'per_page', 'current_page', 'last_page', 'from', 'to'].map((k) => [k, { type: 'integer' }])),
            estimated: { type: 'boolean', description: 'total is the planner\'s estimate, not a count' },
          },
        },
      },
    },
    paths,
  };
}
