import { describe, expect, it } from 'vitest';
import { cleanInput, dateRangeProblem, textProblem } from './input.js';
import { iban, intake, isoDate, optionalMultilineText, optionalText, requiredText, wholeNumber } from './fields.js';

describe('text rules', () => {
  it('refuses NUL and lone surrogates, accepts paired surrogates (emoji)', () => {
    expect(textProblem('a\u0000b')).toMatch(/NUL/);
    expect(textProblem('a\ud800')).toMatch(/surrogate/);
    expect(textProblem('\udc00a')).toMatch(/surrogate/);
    expect(textProblem('ok 😀 \u202e')).toBeUndefined();
  });

  it('text fields name the field and store NFC', () => {
    expect(requiredText('Name').safeParse('x\u0000').error?.issues[0]?.message).toBe('Name must not contain a NUL character');
    expect(optionalText('Comment').parse('Co\u0301te')).toBe('C\u00f3te');
    expect(requiredText('Name').safeParse(undefined).error?.issues[0]?.message).toBe('Name is required');
  });

  it('text loses the invisible characters pasted with it (zero-width space, word joiner, BOM, soft hyphen), and keeps the joiners names spell with', () => {
    expect(requiredText('Last name').parse('\uFEFFMül\u200Bler\u2060 Schmid\u00ADt')).toBe('Müller Schmidt');
    expect(requiredText('Last name').safeParse('\u200B \uFEFF').error?.issues[0]?.message).toBe('Last name is required');
    expect(optionalText('Name').parse('Mehr\u200Cdad')).toBe('Mehr\u200Cdad');
    expect(cleanInput({ search: 'Mül\u200Bler' }).value).toEqual({ search: 'Müller' });
  });
});

describe('one line or several (decision 060)', () => {
  it('a one-line field refuses line breaks (also U+2028 and U+0085), tabs and other control characters, naming the field and the character', () => {
    const street = optionalText('Street');
    for (const v of ['Main St\n12', 'Main St\r12', 'Main St\u2028 12', 'Main\u0085St']) expect(street.safeParse(v).error?.issues.map((i) => i.message), JSON.stringify(v)).toEqual(['Street must be one line (no line breaks)']);
    expect(street.safeParse('Ring\u0007 7').error?.issues[0]?.message).toBe('Street must not contain control characters (U+0007)');
    expect(street.safeParse('Ring\u009b7').error?.issues[0]?.message).toBe('Street must not contain control characters (U+009B)');
    expect(street.safeParse('Ring\t7').error?.issues[0]?.message).toBe('Street must not contain control characters (U+0009 (tab))');
    expect(requiredText('Last name').safeParse('Ng\u001b[31m').error?.issues.map((i) => i.message)).toEqual(['Last name must not contain control characters (U+001B)']);
  });

  it('trims a pasted line break or tab at either end instead of refusing it; keeps what is allowed', () => {
    expect(optionalText('Street').parse('\tMain St 12\r\n')).toBe('Main St 12');
    expect(optionalText('Name').parse('Zoë 😀 \u202e')).toBe('Zoë 😀 \u202e');
  });

  it('comments keep line breaks and tabs, and refuse the other control characters', () => {
    const comments = optionalMultilineText('Comments');
    expect(comments.parse('Called:\n\tno answer\r\nagain')).toBe('Called:\n\tno answer\r\nagain');
    expect(comments.safeParse('ding\u0007').error?.issues[0]?.message).toBe('Comments must not contain control characters (U+0007)');
    expect(comments.safeParse('x'.repeat(5001)).error?.issues[0]?.message).toBe('Comments must be at most 5000 characters');
  });
});

describe('required text', () => {
  it('says "is required" when missing, null (an emptied form field) or blank, and "must be text" for a number', () => {
    const name = requiredText('Name', 100);
    for (const value of [undefined, null, '', '   ']) expect(name.safeParse(value).error?.issues[0]?.message, String(value)).toBe('Name is required');
    expect(name.safeParse(12).error?.issues[0]?.message).toBe('Name must be text');
  });
});

describe('dates and whole numbers', () => {
  it('says a date left out or emptied "is required", and one of the wrong form "must be a date"', () => {
    for (const value of [undefined, null, '']) expect(isoDate('Payment date').safeParse(value).error?.issues[0]?.message, String(value)).toBe('Payment date is required');
    for (const value of ['01-03-2026', 20260301]) expect(isoDate('Payment date').safeParse(value).error?.issues[0]?.message, String(value)).toBe('Payment date must be a date (YYYY-MM-DD)');
  });

  it('accepts real calendar dates from 1900-01-01 to 2199-12-31 only', () => {
    for (const bad of ['0000-01-01', '1899-12-31', '2200-01-01', '10000-01-01', '2026-02-30']) expect(isoDate('D').safeParse(bad).success, bad).toBe(false);
    for (const good of ['1900-01-01', '2199-12-31', '2024-02-29']) expect(isoDate('D').safeParse(good).success, good).toBe(true);
    expect(dateRangeProblem('2200-01-01')).toBe('must be between 1900-01-01 and 2199-12-31');
  });

  it('keeps whole numbers within int4', () => {
    for (const bad of ['2147483648', '-2147483649', '1e309', 'NaN', '1.5']) expect(wholeNumber('n').safeParse(bad).success, bad).toBe(false);
    expect(wholeNumber('n').parse('2147483647')).toBe(2147483647);
  });
});

describe('cleanInput', () => {
  it('reports every bad string by its path and copies objects without a prototype', () => {
    const { value, errors } = cleanInput(JSON.parse('{"a":{"b":["ok","x\\u0000"]},"__proto__":{"polluted":1},"n":"e\\u0301"}'));
    expect(Object.keys(errors)).toEqual(['a.b.1']);
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.keys(value as object)).toEqual(['a', '__proto__', 'n']);
    expect((value as { n: string }).n).toBe('\u00e9');
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });

  it('refuses input nested too deeply', () => {
    expect(Object.keys(cleanInput(JSON.parse(`${'['.repeat(50)}${']'.repeat(50)}`)).errors)).toHaveLength(1);
  });
});

describe('fields as people type them', () => {
  it('an IBAN copied with hyphens, non-breaking spaces or in lower case is stored compact', () => {
    expect(iban('IBAN').parse('de89\u00a03704-0044 0532\u202f0130 00')).toBe('DE89370400440532013000');
    expect(iban('IBAN').safeParse('DE89-3704-0044-0532-0130-01').error?.issues[0]?.message).toBe('IBAN is not a valid IBAN');
  });

  it('an intake that is not a whole year says so, a missing one that it is required', () => {
    expect(intake().safeParse('2021/22').error?.issues[0]?.message).toBe('Intake must be a year');
    expect(intake().safeParse(undefined).error?.issues[0]?.message).toBe('Intake is required');
  });
});
