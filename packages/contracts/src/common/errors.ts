/** Error codes shared by the API (which throws them) and the web (which shows them). */
export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** A change sent without the version the client read (If-Match, a batch's `versions`). */
  PRECONDITION_REQUIRED: 428,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** The message of a 500 whose cause is not for the user (a bug): it says nothing more. */
export const GENERIC_SERVER_ERROR = 'Internal server error';

/** Field name → messages, as answered with a 400. */
export type FieldErrors = Record<string, string[]>;

export interface ErrorBody {
  message: string;
  errors?: FieldErrors;
  request_id?: string;
}

/**
 * An error whose message is safe to show to the user. Anything that is not an AppError
 * is answered with a generic 500 text, never with its own message.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldErrors | undefined;

  constructor(code: ErrorCode, message: string, errors?: FieldErrors) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.errors = errors;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}
