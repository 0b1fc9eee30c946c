import { hash, verify, type Algorithm } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

/** OWASP Password Storage Cheat Sheet: argon2id, 19 MiB, 2 iterations, 1 lane. */
// 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const ARGON2_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const CURRENT_PARAMS = `$argon2id$v=19$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}$`;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export interface PasswordCheck {
  ok: boolean;
  /** True when the stored hash is bcrypt or older argon2 parameters: re-hash after a good login. */
  needsRehash: boolean;
}

// Verified against when the login name is unknown, so a miss takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | null | undefined, password: string): Promise<PasswordCheck> {
  if (!stored) {
    dummyHash ??= hashPassword('not-a-real-password-at-all');
    await verify(await dummyHash, password).catch(() => false);
    return { ok: false, needsRehash: false };
  }
  if (/^\$2[abxy]\$/.test(stored)) {
    return { ok: await bcrypt.compare(password, stored), needsRehash: true };
  }
  if (stored.startsWith('$argon2')) {
    const ok = await verify(stored, password).catch(() => false);
    return { ok, needsRehash: ok && !stored.startsWith(CURRENT_PARAMS) };
  }
  return { ok: false, needsRehash: false };
}
