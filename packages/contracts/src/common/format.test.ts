import { describe, expect, it } from 'vitest';
import { formatBool, formatDate, formatDateTime, formatMoney, localIsoDateTime, parseAmount } from './format.js';

describe('formatting', () => {
  it('shows dates as DD-MM-YYYY without shifting the calendar day', () => {
    expect(formatDate('2024-03-05')).toBe('05-03-2024');
    expect(formatDate('2024-12-31')).toBe('31-12-2024');
    expect(formatDate(null)).toBe('');
  });

  it('shows timestamps as DD-MM-YYYY HH:mm in the office time zone', () => {
    expect(formatDateTime('2024-07-01T10:30:00Z', 'Europe/Berlin')).toBe('01-07-2024 12:30');
    expect(formatDateTime('2024-01-01T23:30:00Z', 'Europe/Berlin')).toBe('02-01-2024 00:30');
    expect(formatDateTime('2024-07-01T10:30:00Z', 'UTC')).toBe('01-07-2024 10:30');
    expect(formatDateTime(undefined, 'Europe/Berlin')).toBe('');
    // The same moment as the office's clock shows it, with the offset (the SEPA file's creation time).
    expect(localIsoDateTime(new Date('2024-01-01T23:30:00Z'), 'Europe/Berlin')).toBe('2024-01-02T00:30:00+01:00');
    expect(localIsoDateTime(new Date('2024-07-01T10:30:00Z'), 'America/New_York')).toBe('2024-07-01T06:30:00-04:00');
  });

  it('shows money with the euro sign and two decimals', () => {
    expect(formatMoney('1234.5')).toBe('€ 1.234,50');
    expect(formatMoney(0)).toBe('€ 0,00');
    expect(formatMoney('-12.345')).toBe('€ -12,35');
    expect(formatMoney(null)).toBe('');
  });

  it('shows booleans as Yes / No', () => {
    expect(formatBool(true)).toBe('Yes');
    expect(formatBool(false)).toBe('No');
    expect(formatBool(null)).toBe('');
  });

  it('reads an amount written in either convention', () => {
    expect(parseAmount('1.234,56')).toBe(1234.56);
    expect(parseAmount('1,234.56')).toBe(1234.56);
    expect(parseAmount('1500.25')).toBe(1500.25);
    expect(parseAmount('1500,5')).toBe(1500.5);
    expect(parseAmount('€ 1.500')).toBe(1500);
    expect(parseAmount('1,500')).toBe(1500);
    expect(parseAmount('1.000.000')).toBe(1000000);
    // A first group starting with 0 groups no thousands: too many decimals, never read as a whole euro amount.
    for (const tiny of ['0.001', '0,001', '-0.005', '00.100', '0.001.000']) expect(parseAmount(tiny), tiny).toBeNull();
    expect(parseAmount('0,01')).toBe(0.01);
    expect(parseAmount('-12,30 EUR')).toBe(-12.3);
    expect(parseAmount('€\u00a04.500,00')).toBe(4500);
    expect(parseAmount('12')).toBe(12);
    expect(parseAmount('1,234,56')).toBeNull();
    expect(parseAmount('1.2345')).toBeNull();
    expect(parseAmount('abc')).toBeNull();
    expect(parseAmount('')).toBeNull();
  });
});
