import type { SessionUser } from '@app/contracts';

declare global {
  namespace Express {
    interface Request {
      /** The logged-in user, set by `authenticate` when the session is valid. */
      user?: SessionUser;
      sessionId?: string;
      /** Why there is no user: shown in the 401. */
      authProblem?: string;
    }
  }
}

export {};
