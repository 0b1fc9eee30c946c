import { Router, type CookieOptions } from 'express';
import { rateLimit } from 'express-rate-limit';
import { eq, sql } from 'drizzle-orm';
import { AppError, LoginSchema } from '@app/contracts';
import { userroles, users } from '@app/db';
import type { AppContext } from '../context.js';
import { parseInput } from '../errors.js';
import { route } from '../routes.js';
import { SESSION_COOKIE } from './middleware.js';
import { hashPassword, verifyPassword } from './password.js';
import { createSession, endSession, sessionUserColumns } from './sessions.js';
import { signToken } from './tokens.js';
import { recordEvent } from '../events/record.js';

function loginLimiters(ctx: AppContext) {
  const windowMs = ctx.env.LOGIN_WINDOW_MINUTES * 60_000;
  const message = `Too many failed login attempts. Try again in ${ctx.env.LOGIN_WINDOW_MINUTES} minutes.`;
  const common = {
    windowMs,
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-8' as const,
    legacyHeaders: false,
    handler: () => {
      throw new AppError('RATE_LIMITED', message);
    },
  };
  return [
    rateLimit({ ...common, limit: ctx.env.LOGIN_MAX_FAILURES_PER_ADDRESS }),
    rateLimit({
      ...common,
      limit: ctx.env.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      keyGenerator: (req) => {
        const body = req.body as { username?: unknown } | undefined;
        return `account:${String(body?.username ?? '').trim().toLowerCase()}`;
      },
    }),
  ];
}

export function authRouter(ctx: AppContext): Router {
  const router = Router();
  const cookieOptions: CookieOptions = {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.env.COOKIE_SECURE ?? ctx.env.NODE_ENV === 'production',
    path: '/',
  };

  route(router, 'post', '/auth/login', ...loginLimiters(ctx), async (req, res) => {
    const { username, password } = parseInput(LoginSchema, req.body, 'login');
    const [row] = await ctx.db
      .select({ ...sessionUserColumns, hash: users.usr_login_password })
      .from(users)
      .innerJoin(userroles, eq(userroles.id, users.usr_role_id))
      .where(eq(sql`lower(${users.usr_login_name})`, username.toLowerCase()));
    const check = await verifyPassword(row?.hash, password);
    if (!row || !check.ok || !row.usr_active) {
      const why = !row ? 'unknown login' : !check.ok ? 'wrong password' : 'account deactivated';
      await recordEvent(ctx.db, { type: 'loginFailed', userId: row?.id ?? null, message: `Failed login as "${username.slice(0, 100)}" (${why})` });
      throw new AppError('UNAUTHENTICATED', 'Wrong username or password');
    }
    const rehashed = check.needsRehash ? await hashPassword(password) : undefined;
    const session = await ctx.db.transaction(async (tx) => {
      if (rehashed) await tx.update(users).set({ usr_login_password: rehashed }).where(eq(users.id, row.id));
      await recordEvent(tx, { type: 'login', userId: row.id, message: `Login of "${row.usr_login_name}"` });
      return createSession(tx, row.id, ctx.env.SESSION_HOURS);
    });
    const token = signToken(ctx.jwtSecret, { sub: String(row.id), sid: session.id }, ctx.env.SESSION_HOURS * 3600);
    res.cookie(SESSION_COOKIE, token, { ...cookieOptions, expires: session.expiresAt });
    const { hash: _hash, ...user } = row;
    res.json({ user, token });
  });

  route(router, 'get', '/auth/me', (req, res) => {
    res.json({ user: req.user });
  });

  route(router, 'post', '/auth/logout', async (req, res) => {
    const user = req.user!;
    await ctx.db.transaction(async (tx) => {
      if (req.sessionId) await endSession(tx, req.sessionId);
      await recordEvent(tx, { type: 'logout', userId: user.id, message: `Logout of "${user.usr_login_name}"` });
    });
    res.clearCookie(SESSION_COOKIE, cookieOptions);
    res.status(204).end();
  });

  return router;
}
