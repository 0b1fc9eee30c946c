import { timestamp } from 'drizzle-orm/pg-core';

/** Millisecond precision, so the value a client saw (as ISO text) compares equal in If-Match. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
