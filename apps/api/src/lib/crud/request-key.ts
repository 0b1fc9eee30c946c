import type { Request } from 'express';
import { and, eq, lt, sql } from 'drizzle-orm';
import { AppError, REQUEST_KEY_HEADER } from '@app/contracts';
import { requestKeys, type Tx } from '@app/db';

const KEY = /^[A-Za-z0-9_-]{16,100}$/;

/** How long a key is remembered: a retry comes within minutes; a day leaves room for a laptop woken up later. */
const KEPT = sql`interval '1 day'`;

/** An Idempotency-Key and the request it came with. */
export interface RequestKey {
  key: string;
  request: string;
}

/** The request's key (400 naming the header when it is not 16–100 letters, digits, `-` or `_`), undefined without one. */
export function requestKeyOf(req: Request): RequestKey | undefined {
  const key = req.get(REQUEST_KEY_HEADER);
  if (key === undefined) return undefined;
  if (!KEY.test(key)) {
    throw new AppError('BAD_REQUEST', `Invalid input: ${REQUEST_KEY_HEADER}`, { [REQUEST_KEY_HEADER]: [`${REQUEST_KEY_HEADER} must be 16 to 100 letters, digits, - or _`] });
  }
  return { key, request: `${req.method} ${req.baseUrl}${req.path}`.slice(0, 300) };
}

/**
 * Does `work` in `tx` once per user and key (decision 050): the first request claims the key in its own
 * transaction and stores its answer there; the same request sent again while the first works waits for it (the
 * key's row is locked), then answers what the first answered without doing anything. If the first failed, its
 * claim went with its rollback and the repeat does the work. A key first sent with another request is a 409.
 * The answer must be plain JSON. Without a key, the work is simply done.
 */
export async function oncePerKey<T>(tx: Tx, actor: { user: { id: number } }, given: RequestKey | undefined, work: () => Promise<T>): Promise<T> {
  if (!given) return work();
  const mine = and(eq(requestKeys.usr_id, actor.user.id), eq(requestKeys.key, given.key));
  const claimed = await tx
    .insert(requestKeys)
    .values({ usr_id: actor.user.id, key: given.key, request: given.request })
    .onConflictDoNothing()
    .returning({ key: requestKeys.key });
  if (claimed.length === 0) {
    const [first] = await tx.select({ request: requestKeys.request, answer: requestKeys.answer }).from(requestKeys).where(mine);
    if (first && first.request !== given.request) {
      throw new AppError('CONFLICT', `${REQUEST_KEY_HEADER} ${given.key} was sent with another request (${first.request}): send a new key`);
    }
    if (first) return first.answer as T;
    // Claimed and given up between the two statements (rolled back): claim it now.
    return oncePerKey(tx, actor, given, work);
  }
  const answer = await work();
  await tx.update(requestKeys).set({ answer: (answer ?? null) as never }).where(mine);
  // The user's keys older than a day are of no use: dropped here, a few at a time.
  await tx.delete(requestKeys).where(and(eq(requestKeys.usr_id, actor.user.id), lt(requestKeys.created_timestamp, sql`now() - ${KEPT}`)));
  return answer;
}
