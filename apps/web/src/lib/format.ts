import type { ReactNode } from 'react';
import { DEFAULT_TIMEZONE, formatBool, formatDate, formatDateTime as formatDateTimeIn, formatMoney, todayIn, type ValueFormat } from '@app/contracts';

export type { ValueFormat };

/**
 * The office's time zone (the server's APP_TIMEZONE), told with the user at login: every time and "today" on
 * screen are the office's, whichever zone the browser is in (decision 060).
 */
let officeZone = DEFAULT_TIMEZONE;
export function setOfficeTimeZone(tz: string | undefined): void {
  officeZone = tz ?? DEFAULT_TIMEZONE;
}

/** An ISO timestamp → `DD-MM-YYYY HH:mm` on the office's clock. */
export function formatDateTime(value: string | Date | null | undefined): string {
  return formatDateTimeIn(value, officeZone);
}

/** Today's date (YYYY-MM-DD) in the office. */
export function officeToday(): string {
  return todayIn(officeZone);
}


export function formatValue(value: unknown, format: ValueFormat = 'text'): ReactNode {
  switch (format) {
    case 'money':
      return formatMoney(value as string | number | null | undefined);
    case 'date':
      return formatDate(value as string | null | undefined);
    case 'datetime':
      return formatDateTime(value as string | null | undefined);
    case 'bool':
      return formatBool(value as boolean | null | undefined);
    case 'number':
      return value === null || value === undefined ? '' : String(value);
    case 'text':
    default:
      if (value === null || value === undefined) return '';
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** Dates, times and amounts are read as one unit: they never break across lines in a table cell. */
export function keepsTogether(format: ValueFormat = 'text'): boolean {
  return format === 'date' || format === 'datetime' || format === 'money';
}

/** Money and numbers line up on the right. */
export function alignOf(format: ValueFormat = 'text'): 'left' | 'right' {
  return format === 'money' || format === 'number' ? 'right' : 'left';
}
