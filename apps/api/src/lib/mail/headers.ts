import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Env } from '../../env.js';

/** Who a mail is from, and where a reply goes: the same for every mail the product sends. */
export interface Sender {
  from: { name: string; address: string };
  /** OFFICE_EMAIL when it is an address other than the From address (replies reach the office's own mailbox). */
  replyTo?: string;
}

const isAddress = (value: string) => z.email().safeParse(value).success;

/**
 * The From header is the office's name (OFFICE_NAME) with the settings' from address: a student sees who writes,
 * not a bare `noreply@…`. Replies go to OFFICE_EMAIL, the address the templates print, when it is an address and
 * not the From address already.
 */
export function senderOf(env: Pick<Env, 'OFFICE_EMAIL' | 'OFFICE_NAME'>, fromAddress: string): Sender {
  const office = env.OFFICE_EMAIL.trim();
  const replyTo = office !== '' && isAddress(office) && office.toLowerCase() !== fromAddress.trim().toLowerCase() ? office : undefined;
  return { from: { name: env.OFFICE_NAME, address: fromAddress }, ...(replyTo ? { replyTo } : {}) };
}

/**
 * A Message-ID in the domain of the From address (RFC 5322 §3.6.4: the right side names the host that made it;
 * the recipient's domain would claim their server wrote it). Kept for a resend, so a mail client can tell a second
 * copy from a new mail.
 */
export function messageIdFor(fromAddress: string): string {
  const domain = fromAddress.split('@')[1]?.trim().toLowerCase() ?? '';
  const safe = /^[a-z0-9.-]+$/.test(domain) ? domain : 'localhost';
  return `<${Date.now().toString(36)}.${randomBytes(8).toString('hex')}@${safe}>`;
}
