import { API_BASE, CountryCreateSchema, paginate, type Country, type SessionUser } from '@app/contracts';

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

function json(status: number, body?: unknown): FakeResponse {
  return { status, body };
}

function makeResponse({ status, body }: FakeResponse): Response {
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: String(status),
    headers: new Headers({ 'content-type': 'application/json' }),
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
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
  private overrides: { method: string; path: string | RegExp; handler: Handler }[] = [];
  private nextId: number;

  constructor(options: { session?: SessionUser | null; countries?: Country[] } = {}) {
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
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
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
    return json(404, { message: `No route ${req.method} ${req.path}` });
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
}
