import type { RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { recordEvent } from '../events/record.js';
import { tokenOf } from './middleware.js';

/** Refusal events still being written (they are written after the response went out). */
const writing = new Set<Promise<unknown>>();

/** Resolves when every refusal event begun so far is written: for tests that compare the database after a refusal. */
export async function refusalsWritten(): Promise<void> {
  await Promise.allSettled([...writing]);
}

/** Keys kept at most; beyond it the oldest go, so a flood of addresses cannot exhaust memory. */
const MAX_KEYS = 10_000;

/**
 * Writes a refused request on an authenticated route to the event log: every 403, and a 401 when a token was
 * given (an ended, expired or forged session; a browser without one is no news). At most one event per user (or
 * address, without a user), route and window, counted in memory: a client retrying in a loop cannot flood the
 * log, and checking the database for each refusal would itself be work an attacker could cause.
 */
export function recordRefusals(ctx: AppContext, windowMs = 60_000): RequestHandler {
  const lastRecorded = new Map<string, number>();
  const due = (key: string, now: number): boolean => {
    const last = lastRecorded.get(key);
    if (last !== undefined && now - last < windowMs) return false;
    lastRecorded.delete(key);
    lastRecorded.set(key, now);
    for (const oldest of lastRecorded.keys()) {
      if (lastRecorded.size <= MAX_KEYS) break;
      lastRecorded.delete(oldest);
    }
    return true;
  };

  return (req, res, next) => {
    res.on('finish', () => {
      const status = res.statusCode;
      const guardedRoute = res.locals.guardedRoute as string | undefined;
      if (!guardedRoute || (status !== 403 && !(status === 401 && tokenOf(req)))) return;
      const who = req.user ? `user ${req.user.id}` : `address ${req.ip}`;
      if (!due(`${who} ${guardedRoute}`, Date.now())) return;
      const path = `${req.method} ${req.originalUrl.split('?')[0]!.slice(0, 200)}`;
      const message = req.user
        ? `Access refused (${status}) to "${req.user.usr_login_name}": ${path}`
        : `Access refused (${status}) from ${req.ip}: ${path} (${req.authProblem ?? 'not logged in'})`;
      const written = recordEvent(ctx.db, { type: 'accessRefused', userId: req.user?.id ?? null, message })
        .catch((err: unknown) => {
          req.log.warn({ err }, 'could not record a refused request in the event log');
        })
        .finally(() => writing.delete(written));
      writing.add(written);
    });
    next();
  };
}
