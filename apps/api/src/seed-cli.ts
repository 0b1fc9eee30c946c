// `pnpm db:seed`: applies migrations and the base seed (lookup data, first account) to the configured
// database — DATABASE_URL, or the embedded one (stop `pnpm start` first: one server per data directory).
import { pino } from 'pino';
import { connect } from '@app/db';
import { loadEnv } from './env.js';
import { openDatabase } from './lib/database.js';
import { seedBase } from './seed.js';

const unknown = process.argv.slice(2);
if (unknown.length > 0) {
  console.error(`db:seed: unknown option ${unknown.join(' ')} (demo and scale data are not available yet)`);
  process.exit(2);
}

const env = loadEnv();
const database = await openDatabase(env, pino({ level: 'warn' }));
const handle = connect(database.url, { max: 2 });
try {
  const result = await seedBase(handle.db, { adminUsername: env.ADMIN_USERNAME, adminPassword: env.ADMIN_PASSWORD });
  console.log(`Seeded ${result.countries} countries.`);
  if (result.admin?.generatedPassword) console.log(`Created "${result.admin.login}" with password ${result.admin.generatedPassword}`);
} finally {
  await handle.close();
  await database.stop();
}
