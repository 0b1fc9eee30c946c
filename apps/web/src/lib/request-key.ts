import { useCallback, useRef } from 'react';
import { REQUEST_KEY_HEADER } from '@app/contracts';

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
