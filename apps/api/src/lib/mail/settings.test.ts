import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.js';
import { userWithToken } from '../../test/factories.js';

// A fresh installation without SMTP_URL: the Email settings have never been saved.
const t = await setupTestApp();
const developer = await userWithToken(t.app, t.db, 'Developer');
const api = (method: 'get' | 'put', path: string) => t.http()[method](`/api/v1.0${path}`).set('Authorization', `Bearer ${developer.token}`);

describe('Email settings on a fresh installation', () => {
  it('are saved the first time from the screen: the version the defaults were read with is the stored one', async () => {
    const read = await api('get', '/config/email').expect(200);
    expect(read.body).toMatchObject({ smtp_servername: '', from_email_address: '' });
    const saved = await api('put', '/config/email/')
      .set('If-Match', read.body.edit_timestamp)
      .send({ smtp_servername: 'mail.example.org', smtp_port: 587, smtp_security: 'starttls', smtp_username: '', from_email_address: 'office@example.org' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ smtp_servername: 'mail.example.org', from_email_address: 'office@example.org' });
    // Saved again with the version read before the first save: someone else's change in between is refused.
    const stale = await api('put', '/config/email/').set('If-Match', read.body.edit_timestamp).send({ smtp_servername: 'other.example.org', smtp_port: 25, smtp_security: 'starttls', from_email_address: 'office@example.org' });
    expect(stale.status).toBe(409);
  });
});
