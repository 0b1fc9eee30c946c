import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { databaseAtMigration } from '../../test/migrations.js';

const database = await databaseAtMigration('0035_payment_commission_within_amount');
const client = new pg.Client({ connectionString: database.url });
await client.connect();
afterAll(() => client.end());

const bank = `'Kasse', 'DE89370400440532013000', 'COBADEFFXXX', 'Street 1', 'Bank Street 1'`;

describe('migration 0036 (short names unique without case, decision 038)', () => {
  it('renames the short names that clash without case (keeping the one in capitals, else the oldest), logs each, and then refuses new clashes', async () => {
    const long = 'L'.repeat(50);
    const { rows: programs } = await client.query<{ id: number; shortname: string }>(
      `insert into programs (name, shortname) values ('Master Z', 'msc-z'), ('Master Z', 'MSC-Z'), ('Master Z', 'Msc-Z'), ('Other', 'OTHER'),
         ('Long', '${long}'), ('Long', '${long.toLowerCase()}'), ('Kept', 'mixed'), ('Kept', 'Mixed') returning id, shortname`,
    );
    const { rows: unis } = await client.query<{ id: number; shortname: string }>(
      `insert into universities (name, shortname, payment_holder_name, payment_holder_iban, payment_holder_swift, payment_holder_address, payment_bank_address)
         values ('Karlsruhe', 'kit', ${bank}), ('Karlsruhe', 'KIT', ${bank}) returning id, shortname`,
    );
    const idOf = (rows: { id: number; shortname: string }[], shortname: string) => rows.find((r) => r.shortname === shortname)!.id;

    await database.migrateToLatest();

    const after = async (table: string) =>
      Object.fromEntries((await client.query<{ id: number; shortname: string }>(`select id, shortname from ${table} order by id`)).rows.map((r) => [r.id, r.shortname]));
    const p = idOf.bind(null, programs);
    const long2 = p(long.toLowerCase());
    expect(await after('programs')).toEqual({
      [p('msc-z')]: `msc-z~${p('msc-z')}`,
      [p('MSC-Z')]: 'MSC-Z',
      [p('Msc-Z')]: `Msc-Z~${p('Msc-Z')}`,
      [p('OTHER')]: 'OTHER',
      [p(long)]: long,
      // Cut to leave room for the suffix within the 50 characters.
      [long2]: `${'l'.repeat(50 - `~${long2}`.length)}~${long2}`,
      // None in capitals: the oldest stays.
      [p('mixed')]: 'mixed',
      [p('Mixed')]: `Mixed~${p('Mixed')}`,
    });
    // The KIT report looks for 'KIT': it keeps its name.
    expect(await after('universities')).toEqual({ [idOf(unis, 'kit')]: `kit~${idOf(unis, 'kit')}`, [idOf(unis, 'KIT')]: 'KIT' });

    const { rows: events } = await client.query<{ eventtype_id: number; le_message: string; resource: string; record_id: number; changes: unknown }>(
      `select eventtype_id, le_message, resource, record_id, changes from log_events where resource in ('program', 'university') order by id`,
    );
    expect(events).toHaveLength(5);
    expect(events[0]).toEqual({
      eventtype_id: 5,
      le_message: `Updated Program "msc-z~${p('msc-z')}": shortname "msc-z" → "msc-z~${p('msc-z')}" (short names are unique without case, and Program "MSC-Z" has this one)`,
      resource: 'program',
      record_id: p('msc-z'),
      changes: { shortname: { old: 'msc-z', new: `msc-z~${p('msc-z')}` } },
    });
    expect(events.at(-1)!.le_message).toBe(`Updated University "kit~${idOf(unis, 'kit')}": shortname "kit" → "kit~${idOf(unis, 'kit')}" (short names are unique without case, and University "KIT" has this one)`);

    await expect(client.query(`insert into programs (name, shortname) values ('Again', 'other')`)).rejects.toMatchObject({ code: '23505', constraint: 'programs_shortname_lower_idx' });
    await expect(
      client.query(`insert into universities (name, shortname, payment_holder_name, payment_holder_iban, payment_holder_swift, payment_holder_address, payment_bank_address) values ('K', 'Kit', ${bank})`),
    ).rejects.toMatchObject({ code: '23505', constraint: 'universities_shortname_lower_idx' });
  });
});
