import { describe, expect, it } from 'vitest';
import { sepaCreditTransfer, sepaNameChange, type SepaTransfer } from './sepa.js';

const transfer = (amount: string): SepaTransfer => ({
  endToEndId: 'S2026-00001',
  amount,
  creditorName: 'Jo Doe',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  remittance: 'S2026-00001 Monthly allowance',
  executionDate: '2026-12-01',
});
const file = (...amounts: string[]) =>
  sepaCreditTransfer({
    messageId: 'SP-1',
    createdAt: '2026-11-26T13:00:00+01:00',
    debtor: { name: 'Office', iban: 'DE02120300000000202051', bic: 'BYLADEM1001' },
    transfers: amounts.map(transfer),
  });

describe('sepaCreditTransfer amounts', () => {
  it('writes each amount with two decimals and their exact sum', () => {
    const xml = file(' 1234.5', '0.01', '10');
    expect(xml.match(/<InstdAmt Ccy="EUR">[^<]*<\/InstdAmt>/g)).toEqual(['1234.50', '0.01', '10.00'].map((a) => `<InstdAmt Ccy="EUR">${a}</InstdAmt>`));
    expect(xml.match(/<CtrlSum>[^<]*<\/CtrlSum>/g)).toEqual(['<CtrlSum>1244.51</CtrlSum>', '<CtrlSum>1244.51</CtrlSum>']);
  });

  it('refuses to write a transfer of 0, of less, or of fractions of a cent', () => {
    for (const amount of ['0.00', '0', '-5.50', '1.001', 'abc', '']) expect(() => file('10.00', amount), amount).toThrow(/cannot be written/);
  });
});

describe('sepa names', () => {
  it('says when the file writes a name other than its letters read: another script left out, or cut at 70; accents are no change', () => {
    expect(sepaNameChange('Иван Petrov')).toBe('"Petrov" (without Иван)');
    expect(sepaNameChange('Zoë Ærøskøbing-Łódź')).toBeNull();
    expect(sepaNameChange(`Maria ${'Bianchi-Ströbel '.repeat(5)}`)).toBe(`"${`Maria ${'Bianchi-Strobel '.repeat(5)}`.slice(0, 70).trim()}" (cut to 70 characters)`);
  });

  it('dates the file by the office clock with its offset', () => {
    expect(file('1.00')).toContain('<CreDtTm>2026-11-26T13:00:00+01:00</CreDtTm>');
  });
});
