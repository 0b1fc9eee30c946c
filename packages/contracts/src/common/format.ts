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
export function formatDateTime(value: string | Date | null | undefined, tz: string): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.tz(tz).format(DATETIME_FORMAT) : '';
}

/** A moment as the office's clock shows it, in ISO 8601 with the zone's offset: `2026-11-29T10:15:00+01:00`. */
export function localIsoDateTime(value: Date, tz: string): string {
  return dayjs(value).tz(tz).format('YYYY-MM-DDTHH:mm:ssZ');
}

/** Today's calendar date (YYYY-MM-DD) in the office's time zone. */
export function todayIn(tz: string): string {
  return dayjs().tz(tz).format('YYYY-MM-DD');
}

const moneyFormat = new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Money is shown as `€ 1.234,56` everywhere (DESIGN §6). */
export function formatMoney(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return '';
  return `€ ${moneyFormat.format(n)}`;
}

/**
 * An amount as people write it, in either convention: `1.234,56`, `1,234.56`, `1234.56`, `€ 1234,5`, `-12`.
 * With both separators the last one starts the cents; a single separator followed by one or two digits does
 * too, while one followed by three digits groups thousands (`1.500` is fifteen hundred). Null when the text is
 * not an amount.
 */
export function parseAmount(text: string): number | null {
  const cleaned = text.replace(/[€\s\u00a0]/g, '').replace(/^EUR|EUR$/i, '');
  if (!/^-?[\d.,]*\d[\d.,]*$/.test(cleaned)) return null;
  const lastSeparator = Math.max(cleaned.lastIndexOf('.'), cleaned.lastIndexOf(','));
  let whole = cleaned;
  let cents = '';
  if (lastSeparator >= 0) {
    const after = cleaned.slice(lastSeparator + 1);
    const mixed = cleaned.includes('.') && cleaned.includes(',');
    const repeated = cleaned.split(cleaned[lastSeparator]!).length > 2;
    if (mixed || (!repeated && after.length !== 3)) {
      whole = cleaned.slice(0, lastSeparator);
      cents = after;
    }
  }
  // Separators left in the whole part group thousands: three digits after each, after one to three that do not
  // start with 0 (`0.001` is a tenth of a cent written with too many decimals, not one euro: refused).
  const groups = whole.replace(/^-/, '').split(/[.,]/);
  if (groups.length > 1 && (!/^[1-9]\d{0,2}$/.test(groups[0]!) || groups.slice(1).some((g) => g.length !== 3))) return null;
  const digits = whole.replace(/[.,]/g, '');
  if (cents.length > 2 || /[.,]/.test(cents) || digits === '' || digits === '-') return null;
  const n = Number(`${digits}.${cents || '0'}`);
  return Number.isFinite(n) ? n : null;
}

export function formatBool(value: boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  return value ? 'Yes' : 'No';
}
