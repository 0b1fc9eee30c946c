import type { Request, RequestHandler } from 'express';
import { AppError, roleHasLevel, SHOWN_USER_HEADER, type Level } from '@app/contracts';
import type { AppContext } from '../context.js';
import { findSessionUser } from './sessions.js';
import { verifyToken } from './tokens.js';

export const SESSION_COOKIE = 'session';

export function tokenOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  const cookie = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
  return cookie || undefined;
}

/**
 * Finds the user of the request's token, if any, and checks on every request that the session
 * still exists and the account is active. It refuses nothing itself: `requireLevel` does.
 */
export function authenticate(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    const token = tokenOf(req);
    if (!token) {
      req.authProblem = 'You are not logged in';
      return next();
    }
    const claims = verifyToken(ctx.jwtSecret, token);
    const userId = Number(claims?.sub);
    if (!claims || !Number.isInteger(userId)) {
      req.authProblem = 'Your session is not valid. Please log in again';
      return next();
    }
    const user = await findSessionUser(ctx.db, claims.sid, userId);
    if (!user) {
      req.authProblem = 'Your session has ended. Please log in again';
    } else if (!user.usr_active) {
      req.authProblem = 'Your account is deactivated';
    } else {
      req.user = user;
      req.sessionId = claims.sid;
    }
    next();
  };
}

export function requireLevel(level: Level): RequestHandler {
  return (req, res, next) => {
    // Marks an authenticated route, by its pattern: a refusal here is recorded (refusals.ts).
    res.locals.guardedRoute = `${req.method} ${(req.route as { path?: string } | undefined)?.path ?? req.path}`;
    if (!req.user) return next(new AppError('UNAUTHENTICATED', req.authProblem ?? 'You are not logged in'));
    // A page still showing the user who opened it after another logged in in this browser (another tab): its call
    // would be made in the other's name. The web says whom it shows (SHOWN_USER_HEADER); refused, nothing done.
    const shown = req.get(SHOWN_USER_HEADER);
    if (shown !== undefined && shown !== String(req.user.id)) {
      const now = req.user.usr_name;
      return next(new AppError('CONFLICT', `You are logged in as ${now} now (in another tab or window of this browser), not as the user this page shows. Nothing was changed: reload the page to go on as ${now}.`));
    }
    if (!roleHasLevel(req.user.userrole_name, level)) {
      return next(new AppError('FORBIDDEN', 'Your role does not allow this'));
    }
    next();
  };
}
