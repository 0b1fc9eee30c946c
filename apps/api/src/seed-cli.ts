// `pnpm db:seed [--demo] [--scale N]`: applies migrations and the base seed (lookup data, first account)
// to the configured database — DATABASE_URL, or the embedded one (stop `pnpm start` first: one server per
// data directory) — then, if asked, realistic demo data and/or N generated students with contracts.
import { parseArgs } from 'node:util';
import { connect, seedDemo, seedScale } from '@app/db';
import { loadEnv } from './env.js';
import { openDatabase } from './lib/database.js';
import { createLogger } from './lib/logger.js';
import { seedBase } from './seed.js';

let options;
try {
  options = parseArgs({ options: { demo: { type: 'boolean', default: false }, scale: { type: 'string' } } }).values;
} catch (err) {
  console.error(`db:seed: ${err instanceof Error ? err.message : String(err)}\nUsage: pnpm db:seed [--demo] [--scale N]`);
  process.exit(2);
}
const scale = options.scale === undefined ? 0 : Number(options.scale);
if (!Number.isInteger(scale) || scale < 0 || scale > 2_000_000) {
  console.error('db:seed: --scale takes a whole number from 1 to 2000000');
  process.exit(2);
}

const env = loadEnv();
const database = await openDatabase(env, createLogger({ LOG_LEVEL: 'warn' }));
const handle = connect(database.url, { max: 2 });
try {
  const result = await seedBase(handle.db, { adminUsername: env.ADMIN_USERNAME, adminPassword: env.ADMIN_PASSWORD });
  console.log(`Base data: ${result.countries} countries added.`);
  if (result.admin?.generatedPassword) console.log(`Created "${result.admin.login}" with password ${result.admin.generatedPassword}`);
  if (options.demo) {
    const demo = await seedDemo(handle.db);
    console.log(demo.students ? `Demo data: ${demo.students} students, ${demo.contracts} contracts.` : 'Demo data is already there.');
  }
  if (scale > 0) {
    const started = performance.now();
    const made = await seedScale(handle.db, scale);
    // The rows are new: VACUUM sets the visibility map that index-only scans need (the seed's ANALYZE runs in
    // its transaction; VACUUM cannot), as autovacuum would do later, if it is on.
    await handle.pool.query('VACUUM (ANALYZE)');
    console.log(`Scale data: ${made.students} students with contracts and ${made.invoices} invoices in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  }
} finally {
  await handle.close();
  await database.stop();
}
