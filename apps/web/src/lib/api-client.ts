import { API_BASE, FILE_MESSAGE_HEADER, GENERIC_SERVER_ERROR, SHOWN_USER_HEADER, type ErrorBody, type FieldErrors } from '@app/contracts';

/**
 * The only place of the web that reads HTTP status codes (CONVENTIONS "Errors"). Every failed call is logged;
 * a 401 ends the session (the auth provider listens); anything else is thrown as an ApiError for the caller.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: FieldErrors;
  /**
   * What the server said went wrong, when it said more than "Internal server error" (a 5xx with a reason meant
   * for staff: the template that does not render, the database not reachable).
   */
  readonly reason: string | undefined;
  /** The server's id of a failed request (a 5xx answers it): what the operator finds it by in the server log. */
  readonly requestId: string | undefined;

  constructor(status: number, message: string, errors: FieldErrors = {}, reason?: string, requestId?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.reason = reason;
    this.requestId = requestId;
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

  /** An upload over the server's limit: the message says the limit. */
  get isTooLarge(): boolean {
    return this.status === 413;
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

/**
 * The user this page shows, sent with every call (X-User-Id): when someone else has logged in in this browser
 * since (another tab), the server refuses the call instead of making it in their name (decision 060).
 */
let shownUser: number | undefined;
export function setShownUser(id: number | undefined): void {
  shownUser = id;
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

/**
 * Sends a call and answers its Response when it succeeded; a failure is logged and thrown as an ApiError.
 * A body is sent as JSON, except FormData (multipart, with the browser's own boundary).
 */
async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const method = options.method ?? 'GET';
  const url = `${API_BASE}${path}${queryString(options.query)}`;
  const headers: Record<string, string> = { Accept: accept, ...(shownUser === undefined ? {} : { [SHOWN_USER_HEADER]: String(shownUser) }), ...options.headers };
  const init: RequestInit = { method, headers, credentials: 'same-origin', signal: options.signal };
  const { body } = options;
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    console.warn(`API ${method} ${url} failed: network error`, cause);
    throw new ApiError(0, 'The server could not be reached');
  }
  if (response.ok) return response;

  const { message, errors, request_id: requestId } = errorBodyOf(await readBody(response));
  const reason = response.status >= 500 && message && message !== GENERIC_SERVER_ERROR ? message : undefined;
  const error = new ApiError(response.status, message || response.statusText || `HTTP ${response.status}`, errors ?? {}, reason, requestId);
  console.warn(`API ${method} ${url} failed: ${response.status} ${error.message}`);
  if (response.status === 401 && !options.ignoreUnauthorized) {
    for (const listener of [...unauthorizedListeners]) listener();
  }
  throw error;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options, 'application/json');
  return (await readBody(response)) as T;
}

/**
 * The file name of a `Content-Disposition: attachment` header: the RFC 5987 `filename*` (UTF-8) when given,
 * otherwise the plain `filename`.
 */
export function filenameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return name || undefined;
}

/** A file the server sent, with the name it gave it. */
export interface DownloadedFile {
  blob: Blob;
  filename: string | undefined;
  /** What the server says beside the file (FILE_MESSAGE_HEADER): an export that left rows out says which. */
  message?: string;
  /** The answer's other headers (the template check's `X-Templates-Failed`). */
  headers?: Headers;
}

function messageOf(header: string | null): string | undefined {
  if (!header) return undefined;
  try {
    return decodeURIComponent(header);
  } catch {
    return undefined;
  }
}

/** A call answered by a file (exports, documents): its bytes, the name from Content-Disposition, and any message. */
export async function apiDownload(path: string, options: RequestOptions = {}): Promise<DownloadedFile> {
  const response = await send(path, { method: 'POST', ...options }, '*/*');
  const message = messageOf(response.headers.get(FILE_MESSAGE_HEADER));
  return { blob: await response.blob(), filename: filenameFromDisposition(response.headers.get('Content-Disposition')), headers: response.headers, ...(message ? { message } : {}) };
}

export const api = {
  get: <T>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T = void>(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
  /** POST of a JSON body (or nothing) answered by a file. */
  download: (path: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    apiDownload(path, { ...options, method: 'POST', body }),
  /** POST of one file as multipart/form-data (field `field`). */
  upload: <T>(path: string, file: File, field = 'file', options: Omit<RequestOptions, 'method' | 'body'> = {}) => {
    const form = new FormData();
    form.append(field, file, file.name);
    return apiRequest<T>(path, { ...options, method: 'POST', body: form });
  },
};
