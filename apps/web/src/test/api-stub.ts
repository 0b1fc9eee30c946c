import { vi } from 'vitest';
import { API_BASE, FILE_MESSAGE_HEADER } from '@app/contracts';

/** A call the web made, as a test reads it. */
export interface SentRequest {
  method: string;
  /** Path under /api/v1.0, without the query. */
  path: string;
  query: URLSearchParams;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The JSON body parsed, a FormData as it was sent, or undefined. */
  body: unknown;
  credentials: RequestCredentials | undefined;
  /** Date.now() when it was sent. */
  at: number;
}

/** A fixed answer: a status (200 unless given) with a JSON body or none, or a file sent as an attachment. */
export interface Answer {
  status?: number;
  body?: unknown;
  /** `message`: what the server says beside the file (its X-Message header); `headers`: others it sends. */
  file?: { content: Blob; filename: string; message?: string; headers?: Record<string, string> };
  /** Answered once this settles: what the screen shows while a call is under way. */
  wait?: Promise<unknown>;
}

/** `GET /countries`, `PUT /countries/1`: a method and a path under /api/v1.0, without the query. */
export type Route = `${'GET' | 'POST' | 'PUT' | 'DELETE'} /${string}`;
export type Answers = Partial<Record<Route, Answer>>;

function response({ status = 200, body, file }: Answer): Response {
  const ok = status >= 200 && status < 300;
  if (file) {
    return {
      ok,
      status,
      statusText: String(status),
      headers: new Headers({
        'content-type': file.content.type || 'application/octet-stream',
        'content-disposition': `attachment; filename="${file.filename}"`,
        ...(file.message ? { [FILE_MESSAGE_HEADER]: encodeURIComponent(file.message) } : {}),
        ...file.headers,
      }),
      blob: async () => file.content,
    } as Response;
  }
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    ok,
    status,
    statusText: String(status),
    headers: new Headers({ 'content-type': 'application/json' }),
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
    blob: async () => new Blob([text], { type: 'application/json' }),
  } as Response;
}

/**
 * `fetch` for the web tests: every `METHOD /path` gets the fixed answer the test gave it, whatever the query or
 * body, and every call is recorded for the test to read. It knows nothing of the API: no filtering, sorting,
 * paging, validation, permissions or stale edits. What the real server does with a call is shown by the e2e
 * journeys. A call without an answer gets a 501 naming it.
 */
export function stubApi(answers: Answers = {}) {
  const routes = new Map<string, Answer>(Object.entries(answers) as [Route, Answer][]);
  const requests: SentRequest[] = [];

  const fetchStub = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost');
    if (!url.pathname.startsWith(API_BASE)) throw new TypeError(`Unexpected fetch of ${url.pathname}`);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key.toLowerCase()] = value;
    });
    const request: SentRequest = {
      method: init.method ?? 'GET',
      path: url.pathname.slice(API_BASE.length),
      query: url.searchParams,
      headers,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body instanceof FormData ? init.body : undefined,
      credentials: init.credentials,
      at: Date.now(),
    };
    requests.push(request);
    const route = `${request.method} ${request.path}`;
    const answer = routes.get(route) ?? { status: 501, body: { message: `No answer for ${route} in this test` } };
    await answer.wait;
    return response(answer);
  };
  vi.stubGlobal('fetch', fetchStub);

  const sent = (route: Route) => requests.filter((r) => `${r.method} ${r.path}` === route);
  return {
    requests,
    /** Answers a route from now on (another answer than before, or a first one). */
    on(route: Route, answer: Answer) {
      routes.set(route, answer);
      return this;
    },
    /** The calls made to a route, oldest first. */
    sent,
    /** The last call made to a route. */
    last: (route: Route) => sent(route).at(-1),
  };
}

export type ApiStub = ReturnType<typeof stubApi>;
