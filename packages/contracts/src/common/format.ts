import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';

dayjs.extend(utc);
dayjs.extend(timezone);

export const DEFAULT_TIMEZONE = 'Europe/Berlin';
export const DATE_FORMAT = 'DD-MM-YYYY';
export const DATETIME_FORMAT = 'DD-MM-YYYY HH:mm';

/** `2024-03-05` → `05-03-2024`. Calendar dates carry no time zone. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value.slice(0, 10), 'YYYY-MM-DD');
  return d.isValid() ? d.format(DATE_FORMAT) : '';
}

/** An ISO timestamp → `DD-MM-YYYY HH:mm` in the office's time zone. */
export function formatDateTime(value: string | Date | null | undefined, tz: string = DEFAULT_TIMEZONE): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.tz(tz).format(DATETIME_FORMAT) : '';
}

const moneyFormat = new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Money is shown as `€ 1.234,56` everywhere (DESIGN §6). */
export function formatMoney(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return '';
  return `€ ${moneyFormat.format(n)}`;
}

export function formatBool(value: boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  return value ? 'Yes' : 'No';
}
