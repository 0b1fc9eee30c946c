import { describe, expect, it } from 'vitest';
import { asciiLetters } from './demo.js';

describe('demo e-mail addresses', () => {
  it('write every name with plain letters, keeping letters that do not decompose (Ł, ø, ß)', () => {
    expect(asciiLetters('Łukasz')).toBe('lukasz');
    expect(asciiLetters('Ó Súilleabháin')).toBe('osuilleabhain');
    expect(asciiLetters('Søren Kierkegård')).toBe('sorenkierkegard');
    expect(asciiLetters('Weiß')).toBe('weiss');
    expect(asciiLetters('Nguyễn Thị Hương')).toBe('nguyenthihuong');
  });
});
