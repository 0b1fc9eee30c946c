import { beforeAll, describe, expect, it } from 'vitest';
import { roleHasLevel, type AnyResource, type RoleName } from '@app/contracts';
import type { TestApp } from './app.js';
import { userWithToken } from './factories.js';

export interface CrudSuiteSpec {
  resource: AnyResource;
  /** A valid create body; `n` makes it unique within the file. */
  valid: (n: number) => Record<string, unknown>;
  /** An invalid body and the fields its 400 must name. */
  invalid: { body: Record<string, unknown>; fields: string[] };
  /** A partial update (fields and new values). */
  change: Record<string, unknown>;
  /** Two sortable fields for the multi-sort check. */
  sortBy: [string, string];
}

const compare = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'en'));

/**
 * The behaviour every generic resource shares (DESIGN §4): paging, multi-sort, validation that names
 * the fields and stores nothing, partial update, stale edit, delete, and role refusals that change nothing.
 */
export function crudSuite(t: TestApp, spec: CrudSuiteSpec): void {
  const { resource } = spec;
  const base = `/api/v1.0/${resource.apiPath}`;
  let writer: Awaited<ReturnType<typeof userWithToken>>;
  let n = 1000;
  const as = (token: string) => ({
    get: (path = '') => t.http().get(`${base}${path}`).set('Authorization', `Bearer ${token}`),
    post: (body: unknown) => t.http().post(base).set('Authorization', `Bearer ${token}`).send(body as object),
    put: (id: number, body: unknown, ifMatch?: string) => {
      const req = t.http().put(`${base}/${id}`).set('Authorization', `Bearer ${token}`);
      return (ifMatch ? req.set('If-Match', ifMatch) : req).send(body as object);
    },
    delete: (id: number) => t.http().delete(`${base}/${id}`).set('Authorization', `Bearer ${token}`),
  });
  const create = async () => {
    const res = await as(writer.token).post(spec.valid(n++));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as number;
  };
  const total = async () => (await as(writer.token).get('?per_page=1')).body.links.pagination.total as number;

  describe(`${resource.titlePlural}: generic behaviour`, () => {
    beforeAll(async () => {
      writer = await userWithToken(t.app, t.db, resource.access.write === 'user' ? 'User' : 'Administrator');
    });

    it('creates a record (201 {id}) and reads it back', async () => {
      const body = spec.valid(n++);
      const res = await as(writer.token).post(body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const row = (await as(writer.token).get(`/${res.body.id}`)).body;
      expect(row.id).toBe(res.body.id);
      expect(row.edit_timestamp).toEqual(expect.any(String));
    });

    it('pages and sorts by several keys', async () => {
      for (let i = 0; i < 3; i++) await create();
      const page = await as(writer.token).get('?per_page=2&page=2');
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(2);
      expect(page.body.links.pagination).toMatchObject({ per_page: 2, current_page: 2, from: 3, to: 4 });
      const [a, b] = spec.sortBy;
      const sorted = await as(writer.token).get(`?per_page=200&sort=${a}|asc,${b}|desc`);
      expect(sorted.status).toBe(200);
      const rows = sorted.body.data as Record<string, unknown>[];
      for (let i = 1; i < rows.length; i++) {
        const byA = compare(rows[i - 1]![a], rows[i]![a]);
        expect(byA).toBeLessThanOrEqual(0);
        if (byA === 0) expect(compare(rows[i - 1]![b], rows[i]![b])).toBeGreaterThanOrEqual(0);
      }
      expect((await as(writer.token).get('?sort=nope|asc')).status).toBe(400);
      expect((await as(writer.token).get('?nope=1')).status).toBe(400);
    });

    it('answers 400 naming the bad fields and stores nothing', async () => {
      const before = await total();
      const res = await as(writer.token).post(spec.invalid.body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors).sort()).toEqual([...spec.invalid.fields].sort());
      expect(await total()).toBe(before);
    });

    it('updates only the changed fields, answers 428 without If-Match and 409 to a stale one', async () => {
      const id = await create();
      const before = (await as(writer.token).get(`/${id}`)).body;
      const blind = await as(writer.token).put(id, { id, ...spec.change });
      expect(blind.status).toBe(428);
      expect(blind.body.errors).toEqual({ 'If-Match': ['If-Match is required'] });
      expect((await as(writer.token).get(`/${id}`)).body).toEqual(before);
      const res = await as(writer.token).put(id, { id, ...spec.change }, before.edit_timestamp);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject(spec.change);
      const untouched = Object.keys(before).filter((k) => !(k in spec.change) && k !== 'edit_timestamp');
      for (const field of untouched) expect(res.body[field], field).toEqual(before[field]);
      const stale = await as(writer.token).put(id, { id, ...spec.change }, before.edit_timestamp);
      expect(stale.status).toBe(409);
      expect(stale.body.message).toMatch(/was changed by .* after you opened it/);
    });

    if (resource.deletable) {
      it('deletes (204), then the record is gone (404)', async () => {
        const id = await create();
        expect((await as(writer.token).delete(id)).status).toBe(204);
        expect((await as(writer.token).get(`/${id}`)).status).toBe(404);
      });
    }

    it('refuses writes to roles below its level with 403 and changes nothing', async () => {
      const id = await create();
      const before = (await as(writer.token).get(`/${id}`)).body;
      const lower = (['User', 'Reader'] as RoleName[]).filter((role) => !roleHasLevel(role, resource.access.write));
      for (const role of lower) {
        const other = await userWithToken(t.app, t.db, role);
        const count = await total();
        expect((await as(other.token).get(`/${id}`)).status).toBe(200);
        expect((await as(other.token).post(spec.valid(n++))).status).toBe(403);
        expect((await as(other.token).put(id, { id, ...spec.change })).status).toBe(403);
        expect((await as(other.token).delete(id)).status).toBe(403);
        expect(await total()).toBe(count);
        expect((await as(writer.token).get(`/${id}`)).body).toEqual(before);
      }
    });
  });
}
