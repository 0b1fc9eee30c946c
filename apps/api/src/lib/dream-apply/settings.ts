import { Router } from 'express';
import { eq, sql } from 'drizzle-orm';
import { AppError, DreamApplyConfigUpdateSchema, type DreamApplyConfig } from '@app/contracts';
import { dreamApplySettings, type DbOrTx } from '@app/db';
import type { AppContext } from '../context.js';
import { actorOf } from '../crud/crud-router.js';
import { parseInput } from '../errors.js';
import { describeChanges, diffFields, recordEvent } from '../events/record.js';
import { route } from '../routes.js';

/** The stored settings, key included: for the import only, never for an answer, a log line or an event. */
export async function readDreamApplySettings(db: DbOrTx): Promise<{ base_url: string; api_key: string | null; edit_timestamp: Date }> {
  const [row] = await db.select().from(dreamApplySettings).where(eq(dreamApplySettings.id, 1));
  return row ?? { base_url: '', api_key: null, edit_timestamp: new Date(0) };
}

async function forDisplay(db: DbOrTx): Promise<DreamApplyConfig> {
  const s = await readDreamApplySettings(db);
  return { base_url: s.base_url, api_key_set: s.api_key !== null && s.api_key !== '', edit_timestamp: s.edit_timestamp.toISOString() };
}

/** The DreamApply settings (issue 16): read and saved by a Developer only, like the Email tab; the key is write-only. */
export function dreamApplyConfigRouter(ctx: AppContext): Router {
  const router = Router();
  route(router, 'get', '/config/dream_apply', async (_req, res) => {
    res.json(await forDisplay(ctx.db));
  });
  route(router, 'put', '/config/dream_apply', async (req, res) => {
    const change = parseInput(DreamApplyConfigUpdateSchema, req.body ?? {}, 'DreamApply settings');
    const actor = actorOf(req);
    const answer = await ctx.db.transaction(async (tx) => {
      await tx.insert(dreamApplySettings).values({ id: 1 }).onConflictDoNothing();
      const [current] = await tx.select().from(dreamApplySettings).where(eq(dreamApplySettings.id, 1)).for('update');
      if (!current) throw new AppError('CONFLICT', 'The DreamApply settings could not be read');
      const values: Partial<typeof dreamApplySettings.$inferInsert> = { base_url: change.base_url };
      // An empty or absent key keeps the stored one: the form never shows it, so it cannot send it back.
      if (change.api_key) values.api_key = change.api_key;
      const changes = diffFields(current, values, { secret: ['api_key'] });
      if (Object.keys(changes).length > 0) {
        await tx
          .update(dreamApplySettings)
          .set({ ...values, edit_user: actor.user.id, edit_timestamp: sql`greatest(now(), ${dreamApplySettings.edit_timestamp} + interval '1 millisecond')` })
          .where(eq(dreamApplySettings.id, 1));
        await recordEvent(tx, { type: 'update', userId: actor.user.id, message: `DreamApply settings changed: ${describeChanges(changes)}`, changes });
      }
      return forDisplay(tx);
    });
    res.json(answer);
  });
  return router;
}
