import { Router, type CookieOptions } from 'express';
import { eq, sql } from 'drizzle-orm';
import { AppError, LoginSchema } from '@app/contracts';
import { userroles, users } from '@app/db';
import type { AppContext } from '../context.js';
import { parseInput } from '../errors.js';
import { route } from '../routes.js';
import { SESSION_COOKIE } from './middleware.js';
import { LoginThrottle } from './login-throttle.js';
import { hashPassword, verifyPassword } from './password.js';
import { createSession, endSessions, sessionUserColumns } from './sessions.js';
import { signToken } from './tokens.js';
import { recordEvent } from '../events/record.js';

/** The login throttle of an app: account+address keys and address keys, each with its own free failures. */
function loginThrottles(ctx: AppContext) {
  const { env } = ctx;
  const common = { baseDelayMs: env.LOGIN_DELAY_SECONDS * 1000, maxDelayMs: env.LOGIN_MAX_DELAY_MINUTES * 60_000, forgetAfterMs: env.LOGIN_WINDOW_MINUTES * 60_000 };
  const account = new LoginThrottle({ ...common, freeFailures: env.LOGIN_MAX_FAILURES_PER_ACCOUNT });
  const address = new LoginThrottle({ ...common, freeFailures: env.LOGIN_MAX_FAILURES_PER_ADDRESS });
  return (username: string, ip: string | undefined) => {
    const accountKey = `${username.toLowerCase()}\n${ip}`;
    const addressKey = ip ?? '';
    /** The same step on both keys: the account from this address, and the address alone. */
    const both = (step: (throttle: LoginThrottle, key: string) => void) => {
      step(account, accountKey);
      step(address, addressKey);
    };
    return {
      waitMs: () => Math.max(account.waitMs(accountKey), address.waitMs(addressKey)),
      begin: () => both((t, k) => t.begin(k)),
      fail: () => both((t, k) => t.fail(k)),
      // A success clears the account's failures; the address keeps its own (many accounts guessed from one place).
      succeed: () => {
        account.succeed(accountKey);
        address.done(addressKey);
      },
      /** The attempt ended by an error of the server: not counted either way. */
      abandon: () => both((t, k) => t.done(k)),
    };
  };
}

export function authRouter(ctx: AppContext): Router {
  const router = Router();
  const cookieOptions: CookieOptions = {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.env.COOKIE_SECURE ?? ctx.env.NODE_ENV === 'production',
    path: '/',
  };

  const throttleFor = loginThrottles(ctx);
  route(router, 'post', '/auth/login', async (req, res) => {
    const { username, password } = parseInput(LoginSchema, req.body, 'login');
    // Checked before the password, or guessing would go on during the delay; only wrong credentials count.
    const throttle = throttleFor(username, req.ip);
    const waitMs = throttle.waitMs();
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      res.setHeader('Retry-After', String(seconds));
      throw new AppError('RATE_LIMITED', `Too many failed login attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`);
    }
    // Counted while its password is checked: requests sent at once wait their turn once the failures left are
    // taken by the ones under way (decision 053).
    throttle.begin();
    let row, check;
    try {
      [row] = await ctx.db
        .select({ ...sessionUserColumns, hash: users.usr_login_password })
        .from(users)
        .innerJoin(userroles, eq(userroles.id, users.usr_role_id))
        .where(eq(sql`lower(${users.usr_login_name})`, username.toLowerCase()));
      check = await verifyPassword(row?.hash, password);
    } catch (err) {
      throttle.abandon();
      throw err;
    }
    if (!row || !check.ok || !row.usr_active) {
      throttle.fail();
      // Every logged-in role reads the log: a name that is no account's is not written there, for what is typed
      // into the username field by mistake is often a password (decision 053). A known account is named.
      const message = !row
        ? `Failed login with a name that is no account's (${username.length} characters)`
        : `Failed login as "${row.usr_login_name}" (${!check.ok ? 'wrong password' : 'account deactivated'})`;
      await recordEvent(ctx.db, { type: 'loginFailed', userId: row?.id ?? null, message });
      throw new AppError('UNAUTHENTICATED', 'Wrong username or password');
    }
    throttle.succeed();
    const rehashed = check.needsRehash ? await hashPassword(password) : undefined;
    const session = await ctx.db.transaction(async (tx) => {
      if (rehashed) await tx.update(users).set({ usr_login_password: rehashed }).where(eq(users.id, row.id));
      await recordEvent(tx, { type: 'login', userId: row.id, message: `Login of "${row.usr_login_name}"` });
      return createSession(tx, row.id, ctx.env.SESSION_HOURS);
    });
    const token = signToken(ctx.jwtSecret, { sub: String(row.id), sid: session.id }, ctx.env.SESSION_HOURS * 3600);
    res.cookie(SESSION_COOKIE, token, { ...cookieOptions, expires: session.expiresAt });
    const { hash: _hash, ...user } = row;
    res.json({ user, timezone: ctx.env.APP_TIMEZONE, token });
  });

  route(router, 'get', '/auth/me', (req, res) => {
    // The office's zone: the web shows every time on the office's clock, wherever the browser is (decision 060).
    res.json({ user: req.user, timezone: ctx.env.APP_TIMEZONE });
  });

  route(router, 'post', '/auth/logout', async (req, res) => {
    const user = req.user!;
    await ctx.db.transaction(async (tx) => {
      // Every session of the user ends, not only this browser's: a token copied elsewhere dies with it.
      await endSessions(tx, user.id);
      await recordEvent(tx, { type: 'logout', userId: user.id, message: `Logout of "${user.usr_login_name}"` });
    });
    res.clearCookie(SESSION_COOKIE, cookieOptions);
    res.status(204).end();
  });

  return router;
}
