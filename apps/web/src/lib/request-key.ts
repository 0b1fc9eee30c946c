import { useCallback, useRef } from 'react';

/** The header the API takes to do a creating request once (decision 050). */
export const REQUEST_KEY_HEADER = 'Idempotency-Key';

/** A new key: 128 random bits as hex. `crypto.getRandomValues` works on plain http too (randomUUID needs https). */
export function newRequestKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The key of one thing the user asks for (a form, a dialog): the same on every try until it is done, so a retry
 * after a lost answer or a second click is done once by the server; `done` gives the next request a new one.
 */
export function useRequestKey(): { headers: () => Record<string, string>; done: () => void } {
  const key = useRef<string | null>(null);
  const headers = useCallback(() => ({ [REQUEST_KEY_HEADER]: (key.current ??= newRequestKey()) }), []);
  const done = useCallback(() => {
    key.current = null;
  }, []);
  return { headers, done };
}
