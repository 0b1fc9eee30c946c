/**
 * Contract end date = start date + 2 years − 1 millisecond, as a calendar day (spec §4, DESIGN §5):
 * the day before the same date two years later. A 29 February start ends on 27 February (the anniversary
 * is taken as 28 February, as date libraries clamp it).
 */
export function contractEndDate(startDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(startDate);
  if (!match) throw new Error(`"${startDate}" is not a date (YYYY-MM-DD)`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const lastDay = new Date(Date.UTC(year + 2, month, 0)).getUTCDate();
  const anniversary = new Date(Date.UTC(year + 2, month - 1, Math.min(day, lastDay)));
  anniversary.setUTCDate(anniversary.getUTCDate() - 1);
  return anniversary.toISOString().slice(0, 10);
}
