import { Router } from 'express';
import { z } from 'zod';
import { AppError, EmailConfigUpdateSchema, formatDateTime } from '@app/contracts';
import type { AppContext } from '../context.js';
import { actorOf } from '../crud/crud-router.js';
import { parseInput } from '../errors.js';
import { route } from '../routes.js';
import { renderMail } from '../templates/store.js';
import { queueMail } from './outbox.js';
import { emailConfigForDisplay, readSmtpSettings, updateEmailConfig } from './settings.js';

/**
 * The Email settings (issue 12, spec §5, §6): read and saved by a Developer only; the password is write-only.
 * "Send test mail" queues the `test_email` template to the test address through the outbox like every other mail.
 */
export function emailConfigRouter(ctx: AppContext): Router {
  const router = Router();
  route(router, 'get', '/config/email', async (_req, res) => {
    res.json(await emailConfigForDisplay(ctx.db, ctx.env));
  });
  route(router, 'put', '/config/email', async (req, res) => {
    const change = parseInput(EmailConfigUpdateSchema, req.body ?? {}, 'Email settings');
    const version = req.get('If-Match') ?? undefined;
    res.json(await ctx.db.transaction((tx) => updateEmailConfig(tx, ctx.env, actorOf(req), change, version)));
  });
  route(router, 'post', '/config/email/send_test', async (req, res) => {
    parseInput(z.object({}).strict(), req.body ?? {}, 'test mail');
    const actor = actorOf(req);
    const outboxId = await ctx.db.transaction(async (tx) => {
      const settings = await readSmtpSettings(tx);
      if (!settings.test_email_address) {
        throw new AppError('BAD_REQUEST', 'Save a test address first', { test_email_address: ['Test address is required to send a test mail'] });
      }
      if (!settings.smtp_servername || !settings.from_email_address) {
        throw new AppError('BAD_REQUEST', 'Save the SMTP server and from address first', { smtp_servername: ['SMTP server is required to send a test mail'] });
      }
      // The test mail is a template like every text the product sends (`test_email`): an uploaded one is what goes.
      const rendered = await renderMail({ db: tx, env: ctx.env }, 'test_email', {
        sent_at: formatDateTime(new Date().toISOString(), ctx.env.APP_TIMEZONE),
        user: actor.user.usr_name,
        recipient: settings.test_email_address,
        server: `${settings.smtp_servername}:${settings.smtp_port} (${settings.smtp_security})`,
      });
      return queueMail(tx, actor, {
        to: settings.test_email_address,
        subject: rendered.subject,
        text: rendered.text,
        html: rendered.html ?? null,
        concerns: { resource: 'emailSettings', id: 1 },
      });
    });
    res.json({ message: 'Test mail queued: see the Outbox for its delivery', outbox_id: outboxId });
  });
  return router;
}
