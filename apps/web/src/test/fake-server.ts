import {
  API_BASE,
  APPLICATION_ROUNDS,
  canTransition,
  CONTRACT_STATUSES,
  ContractBulkEditSchema,
  contractEndDate,
  contractStatusName,
  CountryCreateSchema,
  EVENT_TYPES,
  paginate,
  resources,
  roleHasLevel,
  ROLES,
  type AnyResource,
  type Choice,
  type Country,
  type SessionUser,
} from '@app/contracts';

/**
 * A tiny in-test API answering the calls of the web as apps/api does (DESIGN §4), behind a stubbed `fetch`:
 * the web's own code runs unmocked, and tests read the requests it made.
 */
export interface RecordedRequest {
  method: string;
  /** Path under /api/v1.0, without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
  at: number;
}

export interface FakeResponse {
  status: number;
  body?: unknown;
  /** A file answer (exports, document downloads), sent as an attachment under its name. */
  file?: { content: Blob; filename: string };
}

type Handler = (req: RecordedRequest) => FakeResponse | undefined;

export const adminUser: SessionUser = {
  id: 1,
  usr_login_name: 'ada',
  usr_name: 'Ada Lovelace',
  usr_first_name: 'Ada',
  usr_last_name: 'Lovelace',
  usr_role_id: 2,
  userrole_name: 'Administrator',
  usr_active: true,
};

export const readerUser: SessionUser = {
  id: 4,
  usr_login_name: 'rita',
  usr_name: 'Rita Reader',
  usr_first_name: 'Rita',
  usr_last_name: 'Reader',
  usr_role_id: 4,
  userrole_name: 'Reader',
  usr_active: true,
};

export const PASSWORD = 'correct horse battery';

const SORTABLE = ['cntry_code', 'cntry_name', 'edit_timestamp'];

/** A row of one of the generically served resources (everything but countries). */
export type FakeRow = Record<string, unknown> & { id: number; edit_timestamp?: string | null };

export const SEEN = '2024-05-01T10:00:00.000Z';

/** The choice lists the fake serves (`GET /{name}/choice`); a test may replace any of them. */
export function defaultChoices(): Record<string, Choice[]> {
  return {
    scholarships: [
      { id: 1, name: 'EMJM-A' },
      { id: 2, name: 'EMJM-B' },
      { id: 3, name: 'NAT-C' },
    ],
    scholarships_type: [
      { id: 'Erasmus Mundus', name: 'Erasmus Mundus' },
      { id: 'National', name: 'National' },
    ],
    userroles: ROLES.map((r) => ({ id: r.id, name: r.name })),
    users: [
      { id: 1, name: 'Ada Lovelace' },
      { id: 3, name: 'Bob User' },
      { id: 4, name: 'Rita Reader' },
    ],
    logging_types: EVENT_TYPES.map((t) => ({ id: t.id, name: t.name })),
    countries: [
      { id: 1, name: 'Germany' },
      { id: 2, name: 'France' },
      { id: 3, name: 'Netherlands' },
    ],
    students: [
      { id: 1, name: 'Müller, José' },
      { id: 2, name: 'Schmidt, Mia' },
    ],
    programs: [
      { id: 2, name: 'Applied Physics' },
      { id: 1, name: 'Data Science' },
    ],
    universities: [{ id: 1, name: 'Technical University of Munich' }],
    contracts: [
      { id: 1, name: 'A000001' },
      { id: 2, name: 'A000002' },
    ],
    contract_status: CONTRACT_STATUSES.map((st) => ({ id: st.id, name: st.name })),
    contracts_intake: [
      { id: 2024, name: '2024' },
      { id: 2025, name: '2025' },
    ],
    contracts_round: APPLICATION_ROUNDS.map((r) => ({ id: r, name: String(r) })),
    file_types: [
      { id: 1, name: 'Contract' },
      { id: 2, name: 'Signed contract' },
      { id: 3, name: 'Passport copy' },
    ],
  };
}

/** A student row as the API answers it; `overrides` change any field. */
export function studentRow(id: number, overrides: Partial<FakeRow> = {}): FakeRow {
  return {
    id,
    first_name: 'Mia',
    last_name: 'Schmidt',
    address: 'Hauptstraße 1',
    zip: '10115',
    city: 'Berlin',
    cntry_id: 1,
    cntry: 'Germany',
    birth_date: '2000-01-31',
    gender: 'Female',
    citizenship1_cntry_id: 2,
    citizenship1: 'France',
    citizenship2_cntry_id: null,
    phone: null,
    email_address: `student${id}@example.org`,
    passport_number: null,
    comments: null,
    registration_fee_payed: false,
    active_contract_id: null,
    payment_holder_first_name: null,
    payment_holder_last_name: null,
    payment_holder_address: null,
    payment_holder_zip_city: null,
    payment_holder_cntry_id: null,
    payment_bank_iban: null,
    payment_bank_swift: null,
    payment_bank_reference: null,
    payment_bank_name: null,
    payment_bank_address: null,
    payment_bank_zip_city: null,
    payment_bank_cntry_id: null,
    university_payment_reference: null,
    bankinfo_request_timestamp: null,
    bankinfo_request_user: null,
    bankinfo_update_timestamp: null,
    bankinfo_update_user: null,
    edit_timestamp: SEEN,
    ...overrides,
  };
}

/** A contract row as the API answers it (joined names included, `files` counted on reading). */
export function contractRow(id: number, overrides: Partial<FakeRow> = {}): FakeRow {
  return {
    id,
    application_number: `A${String(id).padStart(6, '0')}`,
    student_id: 1,
    student_name: 'José Müller',
    first_name: 'José',
    last_name: 'Müller',
    contract_status_id: 1,
    contract_status_name: 'Offer accepted',
    contract_status_date: null,
    scholarship_id: 1,
    scholarship_code: 'EMJM-A',
    program_id: 1,
    program_shortname: 'DS',
    intake: 2024,
    application_round: 1,
    application_id: `APP-${id}`,
    da_application_id: null,
    da_offer_type_displayname: null,
    y1_university_id: 1,
    y2_university_id: null,
    year1_finished: false,
    year2_finished: false,
    active: true,
    start_date: '2024-09-01',
    end_date: '2026-08-31',
    expected_graduation_date: null,
    contract_sent_date: null,
    contract_signed_date: null,
    bankinfo_required: true,
    bankinfo_emailrequest_timestamp: null,
    bankinfo_updated_timestamp: null,
    pf_status_email_timestamp: null,
    check_universityfee_payment: true,
    instalments: false,
    number: null,
    comments: null,
    invoiced_amount: 0,
    payed_amount: 0,
    to_be_payed_amount: 0,
    planned_amount: 0,
    files: 0,
    edit_timestamp: SEEN,
    ...overrides,
  };
}

/** The rows of the generically served resources, keyed by API path. */
export function defaultTables(): Record<string, FakeRow[]> {
  const user = (u: SessionUser, filterActive = false): FakeRow => ({ ...u, usr_filter_active: filterActive, edit_timestamp: SEEN });
  return {
    programs: [
      { id: 1, name: 'Data Science', shortname: 'DS', edit_timestamp: SEEN },
      { id: 2, name: 'Applied Physics', shortname: 'AP', edit_timestamp: SEEN },
    ],
    universities: [
      {
        id: 1,
        name: 'Technical University of Munich',
        shortname: 'TUM',
        payment_holder_name: 'TU München',
        payment_holder_iban: 'DE89370400440532013000',
        payment_holder_swift: 'COBADEFFXXX',
        payment_holder_address: 'Arcisstraße 21\n80333 München',
        payment_bank_address: 'Commerzbank\nKöln',
        payment_amount: 1234.5,
        edit_timestamp: SEEN,
      },
    ],
    studentfees: [
      {
        id: 1,
        intake: 2024,
        scholarship_id: 1,
        scholarship_code: 'EMJM-A',
        registration_fee_amount: 150,
        participationfee1_amount: 4500,
        participationfee2_amount: 4500.5,
        administrationfee1_amount: 0,
        administrationfee2_amount: 0,
        monthly_allowance_amount: 1400,
        edit_timestamp: SEEN,
      },
    ],
    milestones: [
      {
        id: 1,
        intake: 2024,
        scholarship_id: 1,
        scholarship_code: 'EMJM-A',
        year: 1,
        milestone_date: '2024-10-01',
        milestone_amount: 500,
        edit_timestamp: SEEN,
      },
      {
        id: 2,
        intake: 2025,
        scholarship_id: 2,
        scholarship_code: 'EMJM-B',
        year: 2,
        milestone_date: null,
        milestone_amount: 0,
        edit_timestamp: SEEN,
      },
    ],
    users: [
      user(adminUser),
      user({ ...readerUser, id: 3, usr_login_name: 'bob', usr_name: 'Bob User', usr_first_name: 'Bob', usr_last_name: 'User', usr_role_id: 3, userrole_name: 'User' }),
      user(readerUser, true),
    ],
    students: [
      studentRow(1, {
        first_name: 'José',
        last_name: 'Müller',
        gender: 'Male',
        active_contract_id: 1,
        bankinfo_request_timestamp: '2024-04-01T08:00:00.000Z',
        bankinfo_request_user: 'Ada Lovelace',
      }),
      studentRow(2, { citizenship1_cntry_id: 1, citizenship1: 'Germany', city: 'Hamburg', zip: '20095', address: 'Alsterweg 2' }),
    ],
    contracts: [
      contractRow(1),
      contractRow(2, {
        student_id: 2,
        student_name: 'Mia Schmidt',
        first_name: 'Mia',
        last_name: 'Schmidt',
        contract_status_id: 3,
        contract_status_name: 'Enrolled',
        contract_status_date: '2024-09-15',
      }),
    ],
    contract_files: [
      {
        id: 1,
        contract_id: 1,
        ft_id: 1,
        file_type: 'Contract',
        description: 'As sent',
        filename: 'contract.pdf',
        size: 2048,
        mime_type: 'application/pdf',
        uploaded: true,
        edit_timestamp: SEEN,
      },
    ],
    logging: [
      logEvent(1, '2024-05-01T08:00:00.000Z', 1, 'Login of "ada"', 1),
      logEvent(2, '2024-05-01T08:05:00.000Z', 4, 'Created Country "DE"', 1),
      logEvent(3, '2024-05-02T09:30:00.000Z', 1, 'Login of "rita"', 4),
    ],
  };
}

function logEvent(id: number, time: string, typeId: number, message: string, userId: number): FakeRow {
  const names: Record<number, string> = { 1: 'Ada Lovelace', 3: 'Bob User', 4: 'Rita Reader' };
  return {
    id,
    le_time: time,
    eventtype_id: typeId,
    eventtype: EVENT_TYPES.find((t) => t.id === typeId)!.name,
    le_message: message,
    student_id: null,
    student_name: null,
    contract_id: null,
    le_contract: null,
    usr_id: userId,
    usr_name: names[userId] ?? null,
    changes: null,
  };
}

function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
  return errors;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

function json(status: number, body?: unknown): FakeResponse {
  return { status, body };
}

function makeResponse({ status, body, file }: FakeResponse): Response {
  if (file) {
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: String(status),
      headers: new Headers({ 'content-type': file.content.type || 'application/octet-stream', 'content-disposition': `attachment; filename="${file.filename}"` }),
      blob: async () => file.content,
    } as Response;
  }
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: String(status),
    headers: new Headers({ 'content-type': 'application/json' }),
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
    blob: async () => new Blob([text], { type: 'application/json' }),
  } as Response;
}

export function makeCountries(n: number): Country[] {
  return Array.from({ length: n }, (_, i) => {
    const id = i + 1;
    const letters = String.fromCharCode(65 + Math.floor(i / 26) % 26) + String.fromCharCode(65 + (i % 26));
    return {
      id,
      cntry_code: letters,
      cntry_name: `Country ${String(id).padStart(3, '0')}`,
      edit_timestamp: new Date(Date.UTC(2024, 0, 1, 12, 0, id)).toISOString(),
    };
  });
}

export class FakeServer {
  requests: RecordedRequest[] = [];
  /** Who the session cookie belongs to; null when logged out. */
  session: SessionUser | null;
  users: { username: string; password: string; user: SessionUser }[] = [
    { username: 'ada', password: PASSWORD, user: adminUser },
    { username: 'rita', password: PASSWORD, user: readerUser },
  ];
  countries: Country[];
  /** Rows of the other resources, keyed by API path (`programs`, `users`, `logging` …). */
  tables: Record<string, FakeRow[]>;
  choices: Record<string, Choice[]>;
  /** Passwords set through `PUT /users/{id}`, by user id (write only: never answered). */
  passwords = new Map<number, string>();
  /** The files of the documents (`contract_files`), by document id. */
  documents = new Map<number, Blob>([[1, new Blob(['%PDF-1.4 fake'], { type: 'application/pdf' })]]);
  private overrides: { method: string; path: string | RegExp; handler: Handler }[] = [];
  private nextId: number;

  constructor(
    options: {
      session?: SessionUser | null;
      countries?: Country[];
      tables?: Partial<Record<string, FakeRow[]>>;
      choices?: Partial<Record<string, Choice[]>>;
    } = {},
  ) {
    this.tables = { ...defaultTables() } as Record<string, FakeRow[]>;
    for (const [path, rows] of Object.entries(options.tables ?? {})) if (rows) this.tables[path] = rows;
    this.choices = { ...defaultChoices() };
    for (const [name, list] of Object.entries(options.choices ?? {})) if (list) this.choices[name] = list;
    this.session = options.session === undefined ? adminUser : options.session;
    this.countries = options.countries ?? [
      { id: 1, cntry_code: 'DE', cntry_name: 'Germany', edit_timestamp: '2024-05-01T10:00:00.000Z' },
      { id: 2, cntry_code: 'FR', cntry_name: 'France', edit_timestamp: '2024-05-02T10:00:00.000Z' },
      { id: 3, cntry_code: 'NL', cntry_name: 'Netherlands', edit_timestamp: '2024-05-03T10:00:00.000Z' },
    ];
    this.nextId = Math.max(0, ...this.countries.map((c) => c.id)) + 1;
  }

  /** Answers one route differently (errors, delays); the handler may return undefined to fall through. */
  on(method: string, path: string | RegExp, handler: Handler | FakeResponse): this {
    this.overrides.unshift({ method, path, handler: typeof handler === 'function' ? handler : () => handler });
    return this;
  }

  requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
    );
  }

  lastRequestTo(method: string, path: string | RegExp): RecordedRequest | undefined {
    return this.requestsTo(method, path).at(-1);
  }

  fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost');
    if (!url.pathname.startsWith(API_BASE)) throw new TypeError(`Unexpected fetch of ${url.pathname}`);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key.toLowerCase()] = value;
    });
    const req: RecordedRequest = {
      method: init.method ?? 'GET',
      path: url.pathname.slice(API_BASE.length),
      query: url.searchParams,
      headers,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body instanceof FormData ? init.body : undefined,
      credentials: init.credentials,
      at: Date.now(),
    };
    this.requests.push(req);
    return makeResponse(this.handle(req));
  };

  private handle(req: RecordedRequest): FakeResponse {
    for (const o of this.overrides) {
      if (o.method !== req.method) continue;
      if (typeof o.path === 'string' ? o.path !== req.path : !o.path.test(req.path)) continue;
      const answer = o.handler(req);
      if (answer) return answer;
    }
    if (req.path === '/auth/login' && req.method === 'POST') {
      const { username, password } = req.body as { username: string; password: string };
      const account = this.users.find((u) => u.username === username && u.password === password);
      if (!account) return json(401, { message: 'Wrong username or password' });
      this.session = account.user;
      return json(200, { user: account.user, token: 'jwt' });
    }
    if (!this.session) return json(401, { message: 'Not logged in' });
    if (req.path === '/auth/me' && req.method === 'GET') return json(200, { user: this.session });
    if (req.path === '/auth/logout' && req.method === 'POST') {
      this.session = null;
      return json(204);
    }
    if (req.path === '/countries' && req.method === 'GET') return this.listCountries(req.query);
    if (req.path === '/countries' && req.method === 'POST') return this.createCountry(req.body);
    const match = /^\/countries\/(\d+)$/.exec(req.path);
    if (match) {
      const id = Number(match[1]);
      const index = this.countries.findIndex((c) => c.id === id);
      if (index === -1) return json(404, { message: `Country ${id} not found` });
      if (req.method === 'GET') return json(200, this.countries[index]);
      if (req.method === 'DELETE') {
        this.countries.splice(index, 1);
        return json(204);
      }
      if (req.method === 'PUT') return this.updateCountry(index, req);
    }
    const action = this.handleAction(req);
    if (action) return action;
    const choice = /^\/([a-z_]+)\/(choice|choice_checksum)$/.exec(req.path);
    if (choice && req.method === 'GET') {
      const list = this.choices[choice[1]!];
      if (!list) return json(404, { message: `No choice list ${choice[1]}` });
      return choice[2] === 'choice' ? json(200, list) : json(200, { checksum: JSON.stringify(list).length.toString(16) });
    }
    const generic = /^\/([a-z_]+)(?:\/(\d+))?$/.exec(req.path);
    const resource = generic && resources.find((r) => r.apiPath === generic[1] && this.tables[r.apiPath]);
    if (generic && resource) return this.handleResource(resource, generic[2] === undefined ? undefined : Number(generic[2]), req);
    return json(404, { message: `No route ${req.method} ${req.path}` });
  }

  /** The actions beside the generic routes: exports, contract status and bulk edit, document files. */
  private handleAction(req: RecordedRequest): FakeResponse | undefined {
    const { method, path } = req;
    const report = /^\/(students|contracts)\/download_report$/.exec(path);
    if (report && method === 'POST') {
      const filename = report[1] === 'students' ? 'Students.xlsx' : 'Contracts.xlsx';
      return { status: 200, file: { content: new Blob(['PK fake xlsx'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), filename } };
    }
    const status = /^\/contracts\/(\d+)\/update_status$/.exec(path);
    if (status && method === 'PUT') {
      const rows = this.tables.contracts!;
      const index = rows.findIndex((r) => r.id === Number(status[1]));
      if (index === -1) return json(404, { message: `Contract ${status[1]} not found` });
      const current = rows[index]!;
      const target = (req.body as { contract_status_id: number }).contract_status_id;
      const from = Number(current.contract_status_id);
      if (!canTransition(from, target)) {
        return json(409, { message: `A contract with status "${contractStatusName(from)}" cannot change to "${contractStatusName(target)}"` });
      }
      const updated = {
        ...current,
        contract_status_id: target,
        contract_status_name: contractStatusName(target),
        contract_status_date: '2024-06-01',
        edit_timestamp: new Date(Date.now() + 1000).toISOString(),
      };
      rows[index] = updated;
      return json(200, this.view('contracts', updated));
    }
    if (path === '/contracts/bulk_edit' && method === 'POST') {
      if (!roleHasLevel(this.session?.userrole_name, 'administrator')) return json(403, { message: 'Not allowed' });
      const parsed = ContractBulkEditSchema.safeParse(req.body);
      if (!parsed.success) return json(400, { message: 'Invalid bulk edit', errors: fieldErrors(parsed.error.issues) });
      const changes: Record<string, unknown> = Object.fromEntries(Object.entries(parsed.data.changes).filter(([, v]) => v !== undefined));
      if (typeof changes.start_date === 'string') changes.end_date = contractEndDate(changes.start_date);
      const rows = this.tables.contracts!;
      let updated = 0;
      for (const id of parsed.data.ids) {
        const index = rows.findIndex((r) => r.id === id);
        if (index === -1) return json(404, { message: `Contracts not found: ${id}` });
        rows[index] = { ...rows[index]!, ...changes, edit_timestamp: new Date(Date.now() + 1000).toISOString() };
        updated++;
      }
      return json(200, { updated });
    }
    const file = /^\/contract_files\/(\d+)\/(upload|download)$/.exec(path);
    if (file && method === 'POST') {
      const id = Number(file[1]);
      const rows = this.tables.contract_files!;
      const index = rows.findIndex((r) => r.id === id);
      if (index === -1) return json(404, { message: `Document ${id} not found` });
      if (file[2] === 'download') {
        const content = this.documents.get(id);
        if (!content) return json(404, { message: `Document ${id} has no file uploaded yet` });
        return { status: 200, file: { content, filename: String(rows[index]!.filename) } };
      }
      const upload = req.body instanceof FormData ? req.body.get('file') : null;
      if (!(upload instanceof File)) return json(400, { message: 'Choose a file to upload', errors: { file: ['file is required'] } });
      this.documents.set(id, upload);
      rows[index] = {
        ...rows[index]!,
        filename: upload.name,
        size: upload.size,
        mime_type: upload.type || 'application/octet-stream',
        uploaded: true,
        edit_timestamp: new Date(Date.now() + 1000).toISOString(),
      };
      return json(200, rows[index]);
    }
    return undefined;
  }

  /** A stored row as the API answers it: a contract counts its documents. */
  private view(apiPath: string, row: FakeRow): FakeRow {
    if (apiPath !== 'contracts') return row;
    return { ...row, files: (this.tables.contract_files ?? []).filter((f) => f.contract_id === row.id).length };
  }

  private listCountries(query: URLSearchParams): FakeResponse {
    const page = Number(query.get('page') ?? 1);
    const perPage = Number(query.get('per_page') ?? 50);
    const search = (query.get('search') ?? '').toLowerCase();
    const keys = (query.get('sort') ?? '').split(',').filter(Boolean).map((k) => k.split('|') as [string, string]);
    if (keys.some(([field]) => !SORTABLE.includes(field))) return json(400, { message: 'cannot sort by that' });
    let rows = this.countries.filter(
      (c) => !search || c.cntry_code.toLowerCase().includes(search) || c.cntry_name.toLowerCase().includes(search),
    );
    rows = [...rows].sort((a, b) => {
      for (const [field, direction] of keys) {
        const x = String(a[field as keyof Country]);
        const y = String(b[field as keyof Country]);
        if (x !== y) return (x < y ? -1 : 1) * (direction === 'desc' ? -1 : 1);
      }
      return a.id - b.id;
    });
    const pagination = paginate(rows.length, page, perPage);
    return json(200, { data: rows.slice((page - 1) * perPage, page * perPage), links: { pagination } });
  }

  private createCountry(body: unknown): FakeResponse {
    const parsed = CountryCreateSchema.safeParse(body);
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
      return json(400, { message: 'Invalid country', errors });
    }
    if (this.countries.some((c) => c.cntry_code === parsed.data.cntry_code)) {
      return json(409, { message: `Code ${parsed.data.cntry_code} is already used` });
    }
    const id = this.nextId++;
    this.countries.push({ id, ...parsed.data, edit_timestamp: new Date().toISOString() });
    return json(201, { id });
  }

  private updateCountry(index: number, req: RecordedRequest): FakeResponse {
    const current = this.countries[index]!;
    const ifMatch = req.headers['if-match'];
    if (ifMatch !== undefined && ifMatch !== current.edit_timestamp) {
      return json(409, { message: 'This Country was changed by Bob Other at 01-05-2024 12:00 after you opened it.' });
    }
    const { id: _id, ...changes } = req.body as Partial<Country>;
    const updated = { ...current, ...changes, edit_timestamp: new Date(Date.now() + 1000).toISOString() };
    this.countries[index] = updated;
    return json(200, updated);
  }

  private handleResource(resource: AnyResource, id: number | undefined, req: RecordedRequest): FakeResponse {
    const rows = this.tables[resource.apiPath]!;
    if (id === undefined) {
      if (req.method === 'GET') return this.listRows(resource, rows, req.query);
      if (req.method === 'POST' && !resource.readOnly) return this.createRow(resource, rows, req.body);
      return json(404, { message: `No route ${req.method} ${req.path}` });
    }
    const index = rows.findIndex((r) => r.id === id);
    if (index === -1) return json(404, { message: `${resource.title} ${id} not found` });
    if (req.method === 'GET') return json(200, this.view(resource.apiPath, rows[index]!));
    if (resource.readOnly) return json(404, { message: `No route ${req.method} ${req.path}` });
    if (req.method === 'DELETE') {
      if (!resource.deletable) return json(405, { message: `A ${resource.title} can never be deleted` });
      rows.splice(index, 1);
      return json(204);
    }
    if (req.method === 'PUT') return this.updateRow(resource, rows, index, req);
    return json(404, { message: `No route ${req.method} ${req.path}` });
  }

  /** Joined names as the API adds them (scholarship code, role name, user name, a contract's student …). */
  private derive(row: FakeRow, apiPath = ''): FakeRow {
    const out = { ...row };
    if (apiPath === 'contracts') {
      const student = this.tables.students?.find((st) => st.id === out.student_id);
      Object.assign(out, {
        application_number: out.application_number ?? `A${String(out.id).padStart(6, '0')}`,
        contract_status_id: out.contract_status_id ?? 1,
        first_name: student?.first_name ?? '',
        last_name: student?.last_name ?? '',
        student_name: student ? `${String(student.first_name)} ${String(student.last_name)}` : '',
        program_shortname: this.tables.programs?.find((p) => p.id === out.program_id)?.shortname ?? '',
      });
      out.contract_status_name = contractStatusName(Number(out.contract_status_id));
      for (const amount of ['invoiced_amount', 'payed_amount', 'to_be_payed_amount', 'planned_amount']) out[amount] ??= 0;
    }
    if (apiPath === 'contract_files') {
      Object.assign(out, {
        file_type: this.choices.file_types?.find((t) => t.id === out.ft_id)?.name ?? '',
        size: out.size ?? null,
        mime_type: out.mime_type ?? null,
        uploaded: out.uploaded ?? false,
      });
    }
    if (apiPath === 'students') {
      out.cntry = this.choices.countries?.find((c) => c.id === out.cntry_id)?.name ?? '';
      out.registration_fee_payed ??= false;
      out.active_contract_id ??= null;
    }
    if ('scholarship_id' in out) out.scholarship_code = this.choices.scholarships?.find((c) => c.id === out.scholarship_id)?.name ?? '';
    if ('usr_role_id' in out) out.userrole_name = ROLES.find((r) => r.id === out.usr_role_id)?.name ?? '';
    if ('usr_first_name' in out) out.usr_name = `${String(out.usr_first_name)} ${String(out.usr_last_name)}`;
    delete out.usr_login_password;
    return out;
  }

  private listRows(resource: AnyResource, all: FakeRow[], query: URLSearchParams): FakeResponse {
    const page = Number(query.get('page') ?? 1);
    const perPage = Number(query.get('per_page') ?? 50);
    const search = (query.get('search') ?? '').toLowerCase();
    const keys = (query.get('sort') ?? '').split(',').filter(Boolean).map((k) => k.split('|') as [string, string]);
    if (keys.some(([field]) => !resource.sortable.includes(field))) return json(400, { message: 'cannot sort by that' });
    const filters = Object.keys(resource.filterSchema.shape).filter((k) => query.has(k));
    let rows = all.filter((r) => !search || Object.values(r).some((v) => typeof v === 'string' && v.toLowerCase().includes(search)));
    for (const key of filters) {
      const value = query.get(key)!;
      if (key.endsWith('_from')) rows = rows.filter((r) => String(r[key.slice(0, -5)]).slice(0, 10) >= value);
      else if (key.endsWith('_to')) rows = rows.filter((r) => String(r[key.slice(0, -3)]).slice(0, 10) <= value);
      else if (all.some((r) => key in r)) rows = rows.filter((r) => String(r[key]) === value);
    }
    rows = [...rows].sort((a, b) => {
      for (const [field, direction] of keys) {
        const c = compare(a[field], b[field]);
        if (c !== 0) return direction === 'desc' ? -c : c;
      }
      return a.id - b.id;
    });
    const pagination = paginate(rows.length, page, perPage);
    const data = rows.slice((page - 1) * perPage, page * perPage).map((r) => this.view(resource.apiPath, r));
    return json(200, { data, links: { pagination } });
  }

  private createRow(resource: AnyResource, rows: FakeRow[], body: unknown): FakeResponse {
    const parsed = resource.createSchema.safeParse(body);
    if (!parsed.success) return json(400, { message: `Invalid ${resource.title.toLowerCase()}`, errors: fieldErrors(parsed.error.issues) });
    const id = Math.max(0, ...rows.map((r) => r.id)) + 1;
    rows.push(this.derive({ id, ...(parsed.data as Record<string, unknown>), edit_timestamp: new Date().toISOString() }, resource.apiPath));
    return json(201, { id });
  }

  private updateRow(resource: AnyResource, rows: FakeRow[], index: number, req: RecordedRequest): FakeResponse {
    const current = rows[index]!;
    const parsed = resource.updateSchema.safeParse(req.body);
    if (!parsed.success) return json(400, { message: `Invalid ${resource.title.toLowerCase()}`, errors: fieldErrors(parsed.error.issues) });
    const { id: _id, ...changes } = parsed.data as Record<string, unknown>;
    if (resource.apiPath === 'users' && !roleHasLevel(this.session?.userrole_name, 'administrator')) {
      const own = current.id === this.session?.id && Object.keys(changes).every((k) => k === 'usr_login_password');
      if (!own) return json(403, { message: 'You may only set your own password' });
    }
    const ifMatch = req.headers['if-match'];
    if (ifMatch !== undefined && ifMatch !== current.edit_timestamp) {
      return json(409, { message: `This ${resource.title} was changed by Bob Other at 01-05-2024 12:00 after you opened it.` });
    }
    if (typeof changes.usr_login_password === 'string') this.passwords.set(current.id, changes.usr_login_password);
    const updated = this.derive({ ...current, ...changes, edit_timestamp: new Date(Date.now() + 1000).toISOString() }, resource.apiPath);
    rows[index] = updated;
    return json(200, this.view(resource.apiPath, updated));
  }
}
