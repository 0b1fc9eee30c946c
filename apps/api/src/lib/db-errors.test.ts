import { describe, expect, it } from 'vitest';
import express from 'express';
import request from 'supertest';
import { sql, type SQL } from 'drizzle-orm';
import { connect, freePort } from '@app/db';
import { setupTestApp } from '../test/app.js';
import { createContract, createCountry, createReferences, userWithToken } from '../test/factories.js';
import { errorHandler } from './errors.js';

const t = await setupTestApp();

/** A route that runs one statement the database refuses, answered by the app's one error handler. */
async function answerTo(statement: SQL) {
  const app = express();
  app.get('/', async () => {
    await t.db.execute(statement);
  });
  app.use(errorHandler);
  return request(app).get('/');
}

describe('database errors are answered in one place, never with a 500', () => {
  it('a unique violation is a 409 naming the field', async () => {
    await createCountry(t.db, { cntry_code: 'DEU', cntry_name: 'Germany' });
    const res = await answerTo(sql`insert into countries (cntry_code, cntry_name) values ('DEU', 'Again')`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'A Country with this Code already exists', errors: { cntry_code: ['Code is already used'] } });
  });

  it('a reference to a record that does not exist is a 400 naming the field', async () => {
    await createContract(t.db);
    const res = await answerTo(sql`update contracts set program_id = 999999 where id = (select min(id) from contracts)`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ program_id: ['program_id refers to a Program that does not exist'] });
  });

  it('deleting a record still referenced is a 409 naming what refers to it', async () => {
    const { program } = await createReferences(t.db);
    await createContract(t.db, { program_id: program.id });
    const res = await answerTo(sql`delete from programs where id = ${program.id}`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This record is still used by Contracts');
    const admin = await userWithToken(t.app, t.db, 'Administrator');
    const api = await t.http().delete(`/api/v1.0/programs/${program.id}`).set('Authorization', `Bearer ${admin.token}`);
    expect(api.status).toBe(409);
    expect(api.body.message).toBe('This Program is still used by Contracts');
  });

  it('a missing required value is a 400 naming the column', async () => {
    const res = await answerTo(sql`insert into countries (cntry_code) values ('QQQ')`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ cntry_name: ['cntry_name is required'] });
  });

  it('a check violation is a 400', async () => {
    const res = await answerTo(sql`insert into document_counters (kind, year, last_value) values ('invoice', 1999, 0)`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid input: document_counters_positive');
  });

  it('a value too long, a number or date out of range and malformed text are 400s', async () => {
    expect((await answerTo(sql`insert into countries (cntry_code, cntry_name) values ('TOOLONG', 'x')`)).status).toBe(400);
    expect((await answerTo(sql`select 2147483648::int4`)).status).toBe(400);
    expect((await answerTo(sql`select '2024-02-30'::date`)).status).toBe(400);
    expect((await answerTo(sql`select 'abc'::int`)).status).toBe(400);
  });

  it('a serialization failure is a 409 asking to try again', async () => {
    const res = await answerTo(sql`do $$ begin raise exception 'conflict' using errcode = '40001'; end $$`);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Someone changed the same records at the same moment: please try again');
  });

  it('a statement the server cancelled (statement_timeout) is a 503 with Retry-After and a plain message', async () => {
    const res = await answerTo(sql`do $$ begin raise exception 'canceling statement due to statement timeout' using errcode = '57014'; end $$`);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.body.message).toBe('The database is not available at the moment: please try again shortly');
  });

  it('a database that cannot be reached is a 503 within the connect timeout', async () => {
    const unreachable = connect(`postgres://postgres@127.0.0.1:${await freePort()}/nothing`, { connectTimeoutMs: 500, statementTimeoutMs: 500 });
    const app = express();
    app.get('/', async () => {
      await unreachable.db.execute(sql`select 1`);
    });
    app.use(errorHandler);
    const res = await request(app).get('/');
    await unreachable.close();
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
  });

  it('no answer carries SQL, a stack or the internals of the error', async () => {
    const res = await answerTo(sql`insert into countries (cntry_code, cntry_name) values ('DEU', 'Again')`);
    expect(JSON.stringify(res.body)).not.toMatch(/insert|countries_cntry_code_unique|stack|nbtinsert/i);
  });

  it('through the API too: a contract pointing at an unknown student is a 400 naming student_id', async () => {
    const { program, university } = await createReferences(t.db);
    const user = await userWithToken(t.app, t.db, 'User');
    const res = await t
      .http()
      .post('/api/v1.0/contracts')
      .set('Authorization', `Bearer ${user.token}`)
      .send({ student_id: 999999, scholarship_id: 1, program_id: program.id, intake: 2024, application_round: 1, application_id: 'X', y1_university_id: university.id, start_date: '2024-09-01' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ student_id: ['student_id refers to a Student that does not exist'] });
  });
});
