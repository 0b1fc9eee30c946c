import { API_BASE, type ErrorBody, type FieldErrors } from '@app/contracts';

/**
 * The only place of the web that reads HTTP status codes (CONVENTIONS "Errors"). Every failed call is logged;
 * a 401 ends the session (the auth provider listens); anything else is thrown as an ApiError for the caller.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: FieldErrors;

  constructor(status: number, message: string, errors: FieldErrors = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }

  /** A conflict whose message is meant for the user (locked, stale edit, duplicate, still referenced). */
  get isConflict(): boolean {
    return this.status === 409;
  }

  get isUnauthenticated(): boolean {
    return this.status === 401;
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }

  get isValidation(): boolean {
    return this.status === 400;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The login call answers 401 for wrong credentials, which is not the end of a session. */
  ignoreUnauthorized?: boolean;
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called whenever a call answers 401 (the session ended or expired). Returns the unsubscribe function. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => {
    unauthorizedListeners.delete(listener);
  };
}

/** Empty values are left out, so an unused filter never reaches the server. */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorBodyOf(body: unknown): Partial<ErrorBody> {
  return typeof body === 'object' && body !== null ? (body as Partial<ErrorBody>) : {};
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const url = `${API_BASE}${path}${queryString(options.query)}`;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const init: RequestInit = { method, headers, credentials: 'same-origin', signal: options.signal };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    console.warn(`API ${method} ${url} failed: network error`, cause);
    throw new ApiError(0, 'The server could not be reached');
  }

  const body = await readBody(response);
  if (response.ok) return body as T;

  const { message, errors } = errorBodyOf(body);
  const error = new ApiError(response.status, message || response.statusText || `HTTP ${response.status}`, errors ?? {});
  console.warn(`API ${method} ${url} failed: ${response.status} ${error.message}`);
  if (response.status === 401 && !options.ignoreUnauthorized) {
    for (const listener of [...unauthorizedListeners]) listener();
  }
  throw error;
}

export const api = {
  get: <T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T = void>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
