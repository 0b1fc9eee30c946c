import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, smallint, text, unique, varchar } from 'drizzle-orm/pg-core';
import { users } from './auth.js';
import { timestamptz } from './columns.js';
import { contracts } from './contract.js';
import { storedFiles } from './stored-file.js';

/**
 * The Email settings (one row, id 1): the SMTP server the outbox delivers through (issue 12). The password is
 * kept because the worker must authenticate with it; no route answers it and no log line or event shows it.
 */
export const emailSettings = pgTable(
  'email_settings',
  {
    id: smallint('id').primaryKey().default(1),
    smtp_servername: varchar('smtp_servername', { length: 255 }).notNull().default(''),
    smtp_port: integer('smtp_port').notNull().default(587),
    /** none, starttls (upgrade required) or tls (implicit TLS from the first byte, port 465). */
    smtp_security: varchar('smtp_security', { length: 10 }).notNull().default('starttls'),
    smtp_username: varchar('smtp_username', { length: 255 }).notNull().default(''),
    smtp_password: text('smtp_password'),
    from_email_address: varchar('from_email_address', { length: 200 }).notNull().default(''),
    test_email_address: varchar('test_email_address', { length: 200 }),
    edit_timestamp: timestamptz('edit_timestamp').notNull().defaultNow(),
    edit_user: integer('edit_user').references(() => users.id),
  },
  (t) => [
    check('email_settings_singleton', sql`${t.id} = 1`),
    check('email_settings_security_check', sql`${t.smtp_security} in ('none', 'starttls', 'tls')`),
    check('email_settings_port_check', sql`${t.smtp_port} between 1 and 65535`),
  ],
);

/**
 * Every e-mail the product sends, written in the transaction of the action that asks for it (DESIGN §7) and
 * delivered by a job. `status` says only what is known: `sent` once the server accepted it, `unknown` when the
 * connection was lost after the message was handed over and before the server answered.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    recipient: varchar('recipient', { length: 200 }).notNull(),
    recipient_name: varchar('recipient_name', { length: 200 }),
    subject: varchar('subject', { length: 500 }).notNull(),
    text_body: text('text_body').notNull(),
    html_body: text('html_body'),
    status: varchar('status', { length: 10 }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** The SMTP server's last reply, or why the delivery failed. */
    last_reply: text('last_reply'),
    message_id: varchar('message_id', { length: 300 }),
    /** The record the mail concerns (`contract` 12), for the overview's filter and the record's screen. */
    resource: varchar('resource', { length: 50 }),
    record_id: integer('record_id'),
    /**
     * The contract of that record (the contract itself, or the contract of the invoice or payment): a contract's
     * E-mails tab lists every mail about it and its documents (decision 045). Kept when the contract is deleted.
     */
    contract_id: integer('contract_id').references(() => contracts.id, { onDelete: 'set null' }),
    /** What to set when the server accepts the message: `[{target, id}]`, targets from a fixed allow-list. */
    on_accepted: jsonb('on_accepted'),
    /** Set while a delivery is under way: found set by a later job, the earlier one died mid-send (unknown). */
    sending_since: timestamptz('sending_since'),
    created_user: integer('created_user').references(() => users.id),
    created_timestamp: timestamptz('created_timestamp').notNull().defaultNow(),
    sent_timestamp: timestamptz('sent_timestamp'),
    edit_timestamp: timestamptz('edit_timestamp').notNull().defaultNow(),
    edit_user: integer('edit_user').references(() => users.id),
  },
  (t) => [
    check('outbox_status_check', sql`${t.status} in ('queued', 'sent', 'failed', 'unknown')`),
    index('outbox_created_idx').on(t.created_timestamp.desc(), t.id.desc()),
    index('outbox_status_idx').on(t.status),
    index('outbox_record_idx').on(t.resource, t.record_id),
    index('outbox_contract_idx').on(t.contract_id, t.created_timestamp.desc(), t.id.desc()),
    index('outbox_recipient_idx').on(t.recipient),
  ],
);

/** A mail's attachments: the bytes as they were when it was queued, in stored files. */
export const outboxAttachments = pgTable(
  'outbox_attachments',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    outbox_id: integer('outbox_id')
      .notNull()
      .references(() => outbox.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    file_id: integer('file_id')
      .notNull()
      .references(() => storedFiles.id),
  },
  (t) => [unique('outbox_attachments_position_unique').on(t.outbox_id, t.position)],
);
