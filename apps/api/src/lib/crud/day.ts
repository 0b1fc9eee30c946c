import { sql } from 'drizzle-orm';

/** The start of a calendar day (YYYY-MM-DD, plus some days) in the office's time zone, for timestamp bounds. */
export const dayStart = (tz: string, day: unknown, plusDays = 0) => sql`((${String(day)}::date + ${plusDays}::int)::timestamp at time zone ${tz})`;
