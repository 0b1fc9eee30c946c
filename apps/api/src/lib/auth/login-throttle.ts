/**
 * Growing delays after failed logins (decision 011). Only wrong credentials count, each under two keys: the
 * account *from this address* and the address alone (many accounts guessed from one place). The `freeFailures`-th
 * failure closes the key for `baseDelayMs`; each further one for twice as long as the one before, up to
 * `maxDelayMs`. A stranger elsewhere therefore never delays the real user, and nobody is locked out for good.
 * Kept in memory: one API process serves the office, and a restart forgets at most some delays.
 */
export interface ThrottlePolicy {
  freeFailures: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A key whose last failure is this old (and not closed) starts again from zero. */
  forgetAfterMs: number;
}

interface Entry {
  failures: number;
  lastFailure: number;
  closedUntil: number;
  /** Attempts whose password is being checked: each may be a failure (decision 053). */
  checking: number;
}

/** Enough for any real office; beyond it the oldest keys are forgotten, so a flood of names cannot exhaust memory. */
const MAX_KEYS = 50_000;

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly policy: ThrottlePolicy) {}

  /** Milliseconds until `key` may try again (0: now). */
  waitMs(key: string, now = Date.now()): number {
    const entry = this.live(key, now);
    if (!entry) return 0;
    if (entry.closedUntil > now) return entry.closedUntil - now;
    // As many attempts under way as failures are left: the next waits for their outcome, so parallel requests
    // cannot check more passwords than one after the other could (decision 053).
    return entry.checking > 0 && entry.failures + entry.checking >= this.policy.freeFailures ? this.policy.baseDelayMs : 0;
  }

  /** An attempt for `key` begins: counted until it fails, succeeds or is given up (`done`). */
  begin(key: string, now = Date.now()): void {
    const entry = this.live(key, now) ?? { failures: 0, lastFailure: now, closedUntil: 0, checking: 0 };
    entry.checking += 1;
    this.entries.set(key, entry);
  }

  /** An attempt ended without a failure of its credentials (a success, or an error of the server). */
  done(key: string): void {
    const entry = this.entries.get(key);
    if (entry && entry.checking > 0) entry.checking -= 1;
  }

  fail(key: string, now = Date.now()): void {
    const entry = this.live(key, now) ?? { failures: 0, lastFailure: now, closedUntil: 0, checking: 0 };
    if (entry.checking > 0) entry.checking -= 1;
    entry.failures += 1;
    entry.lastFailure = now;
    const beyond = entry.failures - this.policy.freeFailures;
    if (beyond >= 0) {
      entry.closedUntil = now + Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** Math.min(beyond, 30));
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= MAX_KEYS) break;
      this.entries.delete(oldest);
    }
  }

  succeed(key: string): void {
    this.entries.delete(key);
  }

  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.checking === 0 && now >= Math.max(entry.closedUntil, entry.lastFailure + this.policy.forgetAfterMs)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
