import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { invoices, users } from '@app/db';
import { setupTestApp } from '../../test/app.js';
import { createContract, createStudent, userWithToken } from '../../test/factories.js';
import { startTestSmtp } from '../../test/smtp.js';
import { waitFor } from '../../test/wait.js';
import { startTestWorkers } from '../../test/workers.js';

const t = await setupTestApp({ MAIL_RETRY_BASE_MS: '50', MAIL_MAX_ATTEMPTS: '3', MAIL_TIMEOUT_MS: '5000' });
const smtp = await startTestSmtp();
await startTestWorkers(t);

type Staff = Awaited<ReturnType<typeof userWithToken>>;
/** A User-role account with a display name of its own, so each audit pair names whom it should. */
async function staff(first: string, last: string): Promise<Staff> {
  const u = await userWithToken(t.app, t.db, 'User');
  await t.db.update(users).set({ usr_first_name: first, usr_last_name: last }).where(eq(users.id, u.id));
  return u;
}

let creator: Staff;
let numberer: Staff;
let mailer: Staff;
let editor: Staff;
beforeAll(async () => {
  [creator, numberer, mailer, editor] = await Promise.all([staff('Clara', 'Creator'), staff('Pál', 'Pdf-Nyomtató'), staff('Mia', 'Mailer'), staff('Eddie', 'Editor')]);
  const dev = await userWithToken(t.app, t.db, 'Developer');
  const res = await api('put', '/config/email/', dev.token).send({ smtp_servername: '127.0.0.1', smtp_port: smtp.port, smtp_security: 'none', from_email_address: 'office@example.org' });
  expect(res.status, res.text).toBe(200);
});
const api = (method: 'get' | 'post' | 'put' | 'delete', path: string, token: string) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${token}`);
const row = async (id: number) => (await t.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

async function contractFor() {
  const student = await createStudent(t.db, { first_name: 'Zoë', last_name: 'Ångström', email_address: `zoe.${Math.random().toString(36).slice(2)}@example.org` });
  return createContract(t.db, { student_id: student.id });
}

describe('invoice audit pairs (spec §3: creation, edit, PDF creation and e-mail)', () => {
  it('names who created, numbered, mailed and last edited the invoice beside each timestamp, in the record and on the overview page', async () => {
    const contract = await contractFor();
    const made = await api('post', '/invoices', creator.token).send({
      contract_id: contract.id,
      year: 1,
      semester: 0,
      description: 'Tuition year 1',
      amount: 500,
      planned_date: '2020-01-01',
      document_type_id: 1,
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.id as number;

    const fresh = (await api('get', `/invoices/${id}`, creator.token)).body;
    expect(fresh).toMatchObject({ creation_user: 'Clara Creator', edit_user: 'Clara Creator', pdf_user: null, pdf_timestamp: null, email_user: null, email_timestamp: null });
    expect(fresh.creation_timestamp).toMatch(isoTime);

    // An old invoice date: expired, so a reminder may go too.
    const pdf = await api('post', `/invoices/${id}/create_pdf`, numberer.token).send({ invoice_date: '2020-01-10' });
    expect(pdf.status, pdf.text).toBe(200);
    expect(pdf.body).toMatchObject({ pdf_user: 'Pál Pdf-Nyomtató', edit_user: 'Pál Pdf-Nyomtató', creation_user: 'Clara Creator' });

    const count = smtp.received.length;
    expect((await api('post', `/invoices/${id}/send_email`, mailer.token).send({ reminder: false })).status).toBe(200);
    await waitFor('the e-mail timestamp', () => row(id), (r) => r.email_timestamp !== null);
    expect((await api('post', `/invoices/${id}/send_email`, mailer.token).send({ reminder: true })).status).toBe(200);
    await waitFor('the reminder timestamp', () => row(id), (r) => r.email_reminder_timestamp !== null);
    await smtp.waitForMessages(count + 2);

    const before = (await api('get', `/invoices/${id}`, editor.token)).body;
    const put = await api('put', `/invoices/${id}`, editor.token).set('If-Match', before.edit_timestamp).send({ id, comments: 'Checked' });
    expect(put.status, put.text).toBe(200);

    const stored = await row(id);
    const got = (await api('get', `/invoices/${id}`, editor.token)).body;
    expect(got).toMatchObject({
      creation_user: 'Clara Creator',
      pdf_user: 'Pál Pdf-Nyomtató',
      email_user: 'Mia Mailer',
      edit_user: 'Eddie Editor',
    });
    for (const field of ['creation_timestamp', 'edit_timestamp', 'pdf_timestamp', 'email_timestamp', 'email_reminder_timestamp']) expect(got[field], field).toMatch(isoTime);
    expect(new Date(got.creation_timestamp).getTime()).toBe(stored.creation_timestamp.getTime());
    expect(new Date(got.pdf_timestamp).getTime()).toBe(stored.pdf_timestamp!.getTime());
    expect(new Date(got.email_timestamp).getTime()).toBe(stored.email_timestamp!.getTime());
    expect(new Date(got.email_reminder_timestamp).getTime()).toBe(stored.email_reminder_timestamp!.getTime());
    expect(stored).toMatchObject({ creation_user: creator.id, pdf_user: numberer.id, email_user: mailer.id, edit_user: editor.id });

    // A page of the overview answers the same names.
    const list = await api('get', `/invoices?numbered=true&contract_id=${contract.id}`, editor.token);
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id, creation_user: 'Clara Creator', pdf_user: 'Pál Pdf-Nyomtató', email_user: 'Mia Mailer', edit_user: 'Eddie Editor' });
  });

  it('the audit users are read-only: an update or a create naming one is refused with 400 naming the field, and nothing changes', async () => {
    const contract = await contractFor();
    const made = await api('post', '/invoices', creator.token).send({ contract_id: contract.id, year: 2, semester: 1, description: 'Tuition year 2', amount: 10, planned_date: '2026-03-01' });
    expect(made.status, made.text).toBe(201);
    const id = made.body.id as number;
    const current = (await api('get', `/invoices/${id}`, editor.token)).body;
    for (const field of ['pdf_user', 'creation_user', 'edit_user', 'email_user']) {
      const put = await api('put', `/invoices/${id}`, editor.token).set('If-Match', current.edit_timestamp).send({ id, comments: 'x', [field]: 'Eddie Editor' });
      expect(put.status, field).toBe(400);
      expect(Object.keys(put.body.errors), field).toEqual([field]);
      expect(put.body.message).toContain(field);
    }
    const post = await api('post', '/invoices', creator.token).send({ contract_id: contract.id, year: 3, semester: 0, description: 'x', amount: 1, planned_date: '2026-03-01', creation_user: 'Someone' });
    expect(post.status).toBe(400);
    expect(Object.keys(post.body.errors)).toEqual(['creation_user']);
    const after = await row(id);
    expect(after).toMatchObject({ comments: null, creation_user: creator.id, edit_user: creator.id, pdf_user: null, email_user: null });
  });
});
