// `pnpm bench:documents`: PDFs rendered and mails delivered per second (issue 12 point 7), with memory.
//
// Opens the app's database (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR; migrated), renders the one-page
// invoice PDF of the template registry's sample data BENCH_PDFS times (after 20 warm-ups), then points the Email
// settings at a local SMTP server started here (the `smtp-server` package, accepting everything), queues
// BENCH_MAILS mails through the outbox (with a one-page PDF attached to each) and lets the job workers deliver
// them, timing until the last one is `sent`. Prints one table; docs/performance.md keeps the figures.
// The Email settings are put back as they were. Stop `pnpm start` first: one server per data directory.
import { createHash } from 'node:crypto';
import os from 'node:os';
import { eq, inArray, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { connect, emailSettings, outbox } from '@app/db';
import { loadEnv } from '../src/env.js';
import type { AppContext } from '../src/lib/context.js';
import { jwtSecretFor, openDatabase } from '../src/lib/database.js';
import { storeFile } from '../src/lib/files/stored-files.js';
import { startWorkers } from '../src/lib/jobs/worker.js';
import { queueMail } from '../src/lib/mail/outbox.js';
import { renderPdf } from '../src/lib/templates/pdf.js';
import { definitionOf } from '../src/lib/templates/store.js';
import { modulesByKey, resourceModules } from '../src/resources/index.js';
import { startAcceptingSmtp } from './accepting-smtp.js';

const PDFS = Number(process.env.BENCH_PDFS ?? 300);
const MAILS = Number(process.env.BENCH_MAILS ?? 300);
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Resident memory sampled every 20 ms while `work` runs: before, peak, after. */
async function withMemory<T>(work: () => Promise<T>): Promise<{ result: T; before: number; peak: number; after: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const result = await work();
    return { result, before, peak: Math.max(peak, process.memoryUsage().rss), after: process.memoryUsage().rss };
  } finally {
    clearInterval(timer);
  }
}

const env = { ...loadEnv(), WORKERS: 1, MAIL_RETRY_BASE_MS: 100 };
const logger = pino({ level: 'silent' });
const database = await openDatabase(env, logger);
const handle = connect(database.url);
const ctx: AppContext = { db: handle.db, env, jwtSecret: await jwtSecretFor(env), logger };
const rows: [string, string][] = [];

// PDFs: the invoice template with its sample, one page.
const invoice = definitionOf('invoice_pdf');
for (let i = 0; i < 20; i++) await renderPdf(ctx, invoice.internalname, invoice.sample);
const pdf = await withMemory(async () => {
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < PDFS; i++) bytes += (await renderPdf(ctx, invoice.internalname, invoice.sample)).length;
  return { seconds: (performance.now() - started) / 1000, bytes };
});
rows.push([
  `PDF: ${PDFS} one-page invoices (${Math.round(pdf.result.bytes / PDFS / 1024)} kB each), one after another`,
  `${Math.round(PDFS / pdf.result.seconds)} PDFs/s (goal ≥ 100/s); RSS ${mb(pdf.before)} → peak ${mb(pdf.peak)}, ${mb(pdf.after)} after`,
]);

// Mails: a local SMTP server that accepts everything.
const smtp = await startAcceptingSmtp();
const port = smtp.port;
const [saved] = await handle.db.select().from(emailSettings).where(eq(emailSettings.id, 1));
await handle.db
  .insert(emailSettings)
  .values({ id: 1, smtp_servername: '127.0.0.1', smtp_port: port, smtp_security: 'none', from_email_address: 'bench@example.org' })
  .onConflictDoUpdate({
    target: emailSettings.id,
    set: { smtp_servername: '127.0.0.1', smtp_port: port, smtp_security: 'none', smtp_username: '', from_email_address: 'bench@example.org' },
  });
// One stored PDF, attached to every mail by reference (decision 065), as an invoice's mails attach its PDF.
const invoicePdf = await renderPdf(ctx, invoice.internalname, invoice.sample);
const attachment = {
  id: await storeFile(
    handle.db,
    { filename: 'invoice.pdf', mimeType: 'application/pdf', size: invoicePdf.length, sha256: createHash('sha256').update(invoicePdf).digest('hex'), buffer: invoicePdf },
    null,
  ),
};
const workers = await startWorkers(ctx, modulesByKey(resourceModules(ctx)));
const mail = await withMemory(async () => {
  const started = performance.now();
  const ids = await handle.db.transaction(async (tx) => {
    const queued: number[] = [];
    for (let i = 0; i < MAILS; i++) {
      queued.push(
        await queueMail(tx, null, {
          to: { address: `student${i}@example.org`, name: 'Łukasz Wiśniewski' },
          subject: `Rechnung R2026-${String(i).padStart(5, '0')}`,
          text: 'Guten Tag, anbei Ihre Rechnung.',
          attachments: [attachment],
        }),
      );
    }
    return queued;
  });
  const queuedAt = performance.now();
  for (;;) {
    const [left] = await handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(sql`${inArray(outbox.id, ids)} and ${outbox.status} <> 'sent'`);
    if (left!.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { queueSeconds: (queuedAt - started) / 1000, seconds: (performance.now() - started) / 1000 };
});
await workers.stop();
rows.push([
  `mail: ${MAILS} mails with a PDF attached, queued in one transaction (${mail.result.queueSeconds.toFixed(2)} s), delivered by the job workers (WORKER_CONCURRENCY ${env.WORKER_CONCURRENCY}) to a local SMTP server`,
  `${Math.round(MAILS / mail.result.seconds)} mails/s, ${smtp.accepted()} accepted; RSS ${mb(mail.before)} → peak ${mb(mail.peak)}, ${mb(mail.after)} after`,
]);

if (saved) await handle.db.update(emailSettings).set(saved).where(eq(emailSettings.id, 1));
else await handle.db.delete(emailSettings).where(eq(emailSettings.id, 1));
await smtp.close();
await handle.pool.end();
await database.stop();

const cpu = os.cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
console.log(`\nmachine: ${cpu}, ${os.cpus().length} cores; Node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}\n`);
console.log('| measure | figure |\n|---|---|');
for (const [measure, figure] of rows) console.log(`| ${measure} | ${figure} |`);
if (smtp.accepted() !== MAILS) {
  console.error(`the SMTP server accepted ${smtp.accepted()} of ${MAILS} mails`);
  process.exit(1);
}
