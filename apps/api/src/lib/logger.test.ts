import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { users } from '@app/db';
import { setupTestApp } from '../test/app.js';
import { userWithToken } from '../test/factories.js';
import { hashPassword } from './auth/password.js';

const lines: string[] = [];
const t = await setupTestApp({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(line) });
const logged = () => lines.join('');

const IBAN = 'DE89370400440532013000';

describe('the log never holds secrets', () => {
  it('a failed user INSERT logs neither the hash nor the query parameters', async () => {
    const hash = await hashPassword('a password that must stay secret');
    const err: unknown = await t.db
      .insert(users)
      .values({ usr_login_name: 'doomed', usr_first_name: 'A', usr_last_name: 'B', usr_role_id: 999, usr_login_password: hash })
      .catch((e: unknown) => e);
    expect(String((err as Error).message)).toContain('$argon2id$'); // the raw error does carry it
    lines.length = 0;
    t.ctx.logger.error({ err }, 'insert failed');
    t.ctx.logger.error(err);
    const out = logged();
    expect(out).toContain('Failed query: insert into \\"users\\"');
    expect(out).toContain('users_usr_role_id_userroles_id_fk');
    expect(out).not.toContain('$argon2');
    expect(out).not.toContain(hash.split('$').at(-1));
    expect(out).not.toContain('doomed');
    expect(out).not.toContain('is not present in table'); // the detail names the values
  });

  it('masks secret keys, hashes, tokens and IBANs in logged objects and messages', () => {
    lines.length = 0;
    t.ctx.logger.info(
      {
        user: { usr_login_password: 'hunter2hunter2', smtp_pass: 'mail-secret', SMTP_PASS: 'mail-secret-2' },
        headers: { authorization: 'Bearer abc.def.ghi', cookie: 'session=abc' },
        bank: { iban: IBAN, note: `pay to ${IBAN} or DE89 3704 0044 0532 0130 00` },
      },
      'postgres://app:db-secret@localhost/app stored $argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g for eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig',
    );
    const out = logged();
    for (const secret of ['hunter2hunter2', 'mail-secret', 'abc.def.ghi', 'session=abc', IBAN, '0532 0130', '$argon2id$', 'eyJhbGci', 'db-secret']) {
      expect(out, secret).not.toContain(secret);
    }
    expect(out).toContain('[redacted]');
  });

  it('masks secret query values in request log lines, each of which carries the request id', async () => {
    const admin = await userWithToken(t.app, t.db);
    lines.length = 0;
    const res = await t
      .http()
      .get(`/api/v1.0/users?search=x&password=hunter2hunter2&token=tok123tok&iban=${IBAN}`)
      .set('Authorization', `Bearer ${admin.token}`);
    const requestId = res.headers['x-request-id'];
    const out = logged();
    expect(out).not.toContain('hunter2hunter2');
    expect(out).not.toContain('tok123tok');
    expect(out).not.toContain(IBAN);
    expect(out).not.toContain(admin.token);
    const requestLines = lines.map((l) => JSON.parse(l) as { req?: { id: string; url: string } }).filter((l) => l.req);
    expect(requestLines.length).toBeGreaterThan(0);
    for (const line of requestLines) expect(line.req!.id).toBe(requestId);
    expect(requestLines[0]!.req!.url).toBe('/api/v1.0/users?search=…&password=[redacted]&token=[redacted]&iban=[redacted]');
  });

  it('a request URL is logged with its query keys, not who was looked for: search and filter values are left out', async () => {
    const admin = await userWithToken(t.app, t.db);
    lines.length = 0;
    await t
      .http()
      .get('/api/v1.0/students?search=Sch%C3%A4fer&email_address=fatima.new%40private-mail.example&postal_code=37073&cntry_id=49&sort=last_name%7Casc&page=2&per_page=50')
      .set('Authorization', `Bearer ${admin.token}`);
    const out = logged();
    for (const personal of ['Sch', 'fatima', 'private-mail', '37073']) expect(out).not.toContain(personal);
    const url = lines.map((l) => JSON.parse(l) as { req?: { url: string } }).find((l) => l.req)!.req!.url;
    // An id says nothing of a person: kept, with the order and the page; a postal code, a number too, is not.
    expect(url).toBe('/api/v1.0/students?search=…&email_address=…&postal_code=…&cntry_id=49&sort=last_name%7Casc&page=2&per_page=50');
  });

  it('a 5xx reply and its error log line carry the same request id', async () => {
    const admin = await userWithToken(t.app, t.db);
    await t.db.execute(sql`alter table countries rename to countries_gone`);
    lines.length = 0;
    const res = await t.http().get('/api/v1.0/countries').set('Authorization', `Bearer ${admin.token}`);
    await t.db.execute(sql`alter table countries_gone rename to countries`);
    expect(res.status).toBe(500);
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
    const failed = lines.map((l) => JSON.parse(l) as { msg: string; req?: { id: string }; err?: { message: string } }).find((l) => l.msg === 'request failed');
    expect(failed?.req?.id).toBe(res.body.request_id);
    expect(failed?.err?.message).toMatch(/countries/);
  });
});
