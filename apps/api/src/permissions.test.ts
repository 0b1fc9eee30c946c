import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { apiPermissions, EVENT_TYPE_IDS, roleHasLevel, ROLES, type Access, type RoleName } from '@app/contracts';
import { users } from '@app/db';
import { apiRouter } from './app.js';
import { resourceModules } from './resources/index.js';
import { setupTestApp } from './test/app.js';
import { createCountry, userWithToken } from './test/factories.js';

const t = await setupTestApp();

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every `METHOD /path` registered on the API router, nested routers included. */
function registeredRoutes(stack: Layer[]): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      return Object.keys(layer.route.methods)
        .filter((m) => m !== '_all')
        .map((m) => `${m.toUpperCase()} ${layer.route!.path}`);
    }
    return layer.handle?.stack ? registeredRoutes(layer.handle.stack) : [];
  });
}

describe('the permission table', () => {
  it('lists exactly the routes the API registers', () => {
    const router = apiRouter(t.ctx, resourceModules(t.ctx)) as unknown as { stack: Layer[] };
    const registered = registeredRoutes(router.stack).sort();
    expect(registered).toEqual(Object.keys(apiPermissions).sort());
  });
});

describe('every route, for every caller', () => {
  const tokens = {} as Record<RoleName | 'deactivated', string>;
  const ids = {} as Record<RoleName | 'deactivated', number>;
  let countryId = 0;

  beforeAll(async () => {
    for (const { name } of ROLES) {
      const u = await userWithToken(t.app, t.db, name);
      tokens[name] = u.token;
      ids[name] = u.id;
    }
    const gone = await userWithToken(t.app, t.db, 'Developer');
    await t.db.update(users).set({ usr_active: false }).where(eq(users.id, gone.id));
    tokens.deactivated = gone.token;
    ids.deactivated = gone.id;
    countryId = (await createCountry(t.db)).id;
  });

  // Logging out ends the caller's session: keep it for last.
  const routes = Object.entries(apiPermissions).sort(([a], [b]) => Number(a === 'POST /auth/logout') - Number(b === 'POST /auth/logout'));

  const call = (route: string, token: string | undefined, self: number) => {
    const [method = '', path = ''] = route.split(' ');
    const url = `/api/v1.0${path.replace(':id', String(path.startsWith('/users/') ? self : countryId))}`;
    const req = t.http()[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](url);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return method === 'GET' ? req : req.send({});
  };

  /** A digest of every table: a refused call must leave it as it was (but for the event recording the refusal). */
  const snapshot = async () => {
    const tables = await t.db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public' and tablename not like '__drizzle%' order by 1`);
    const parts: string[] = [];
    for (const { tablename } of tables.rows) {
      const refusals = tablename === 'log_events' ? ` where eventtype_id <> ${EVENT_TYPE_IDS.accessRefused}` : '';
      const res = await t.db.execute<{ digest: string }>(sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${tablename}" t${refusals}`));
      parts.push(`${tablename}:${res.rows[0]!.digest}`);
    }
    return parts.join('\n');
  };

  it('answers 401 to anonymous and deactivated callers and 403 below the level, changing nothing', async () => {
    const before = await snapshot();
    for (const [route, access] of routes) {
      if (access === 'public') continue;
      expect((await call(route, undefined, 0)).status, `${route} anonymous`).toBe(401);
      expect((await call(route, tokens.deactivated, ids.deactivated)).status, `${route} deactivated`).toBe(401);
      for (const { name } of ROLES) {
        if (roleHasLevel(name, access as Exclude<Access, 'public'>)) continue;
        expect((await call(route, tokens[name], ids[name])).status, `${route} as ${name}`).toBe(403);
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it('lets every role at or above the level through (the answer is not 401 or 403)', async () => {
    for (const { name } of [...ROLES].reverse()) {
      for (const [route, access] of routes) {
        if (access !== 'public' && !roleHasLevel(name, access)) continue;
        const res = await call(route, tokens[name], ids[name]);
        expect([401, 403], `${route} as ${name}: ${res.status} ${JSON.stringify(res.body)}`).not.toContain(res.status);
      }
    }
  });
});
