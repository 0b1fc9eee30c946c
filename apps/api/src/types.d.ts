import type { SessionUser } from '@app/contracts';
import type { Upload } from './lib/files/upload.js';

declare global {
  namespace Express {
    interface Request {
      /** The logged-in user, set by `authenticate` when the session is valid. */
      user?: SessionUser;
      sessionId?: string;
      /** Why there is no user: shown in the 401. */
      authProblem?: string;
      /** The file (and declared fields) of a multipart upload, set by `acceptUpload`. */
      upload?: Upload;
    }
  }
}

export {};
