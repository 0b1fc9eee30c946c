import type { ReactNode } from 'react';
import { formatBool, formatDate, formatDateTime, formatMoney, type ValueFormat } from '@app/contracts';

export type { ValueFormat };


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
