/**
 * The SEPA credit-transfer file (ISO 20022 pain.001.001.03, issue 15 point 4): the one format European banks
 * accept for a batch of transfers. Written by hand: the structure is small and fixed, and every file the product
 * writes is validated against the official schema in the tests.
 */

export interface SepaDebtor {
  name: string;
  iban: string;
  bic: string;
}

export interface SepaTransfer {
  /** The payment number: end-to-end id and remittance text. */
  endToEndId: string;
  /** NUMERIC text with two decimals (`'1234.50'`), never a float. */
  amount: string;
  creditorName: string;
  /**
   * The creditor's postal address: at most two lines (street; postal code and city) and an ISO country code. The
   * EPC rulebook asks for it when the payee's bank is outside the EEA (Switzerland, the United Kingdom, …).
   */
  creditorAddress?: { lines: readonly string[]; country: string | null };
  iban: string;
  bic: string;
  remittance: string;
  /** The requested execution date (`YYYY-MM-DD`); one payment block per date. */
  executionDate: string;
}

const SPECIAL: Record<string, string> = {
  Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ø: 'O', ø: 'o', Æ: 'AE', æ: 'ae', Œ: 'OE', œ: 'oe', ß: 'ss', Þ: 'TH', þ: 'th', Ð: 'D', ð: 'd', ı: 'i', Ħ: 'H', ħ: 'h',
  '&': '+', '"': "'", '`': "'", '´': "'", '’': "'", '‘': "'", '–': '-', '—': '-', _: '-', '\\': '/',
};

/**
 * Text in the SEPA (EPC) character set — `a-z A-Z 0-9 / - ? : ( ) . , ' +` and space: letters with diacritics
 * lose them (Ł → L, é → e, ß → ss), a few signs become their nearest allowed one, anything else a space.
 */
export function sepaText(value: string, max: number): string {
  return sepaChars(value).slice(0, max).trim() || 'NOTPROVIDED';
}

/** What of a text the SEPA character set keeps (see `sepaText`); empty when nothing, e.g. a name in Cyrillic. */
function sepaChars(value: string): string {
  const mapped = [...value].map((c) => SPECIAL[c] ?? c).join('');
  const plain = mapped.normalize('NFD').replace(/\p{M}/gu, '');
  return plain.replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Whether a name keeps a letter in the SEPA character set (a name in another script would reach the bank as NOTPROVIDED). */
export const sepaNameWritable = (name: string) => /[A-Za-z]/.test(sepaChars(name));

/** The longest name a SEPA file carries (Max70Text). */
export const SEPA_NAME_MAX = 70;

/**
 * How the SEPA file writes a name other than as its letters read, or null: letters of another script left out
 * (`Иван Petrov` → `Petrov`), or a name cut at 70 characters. Accents lost (é → e) are no such change. The export
 * says so beside the file, so nobody learns it from the bank (decision 060).
 */
export function sepaNameChange(name: string): string | null {
  const dropped = [...name].filter((c) => /\p{L}/u.test(c) && !/[A-Za-z]/.test(sepaChars(c)));
  const written = sepaText(name, SEPA_NAME_MAX);
  const reasons = [
    ...(dropped.length > 0 ? [`without ${dropped.join('')}`] : []),
    ...(sepaChars(name).length > SEPA_NAME_MAX ? [`cut to ${SEPA_NAME_MAX} characters`] : []),
  ];
  return reasons.length > 0 ? `"${written}" (${reasons.join(', ')})` : null;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** Sum of NUMERIC texts, exactly (integer cents). */
function sumAmounts(amounts: readonly string[]): string {
  const cents = amounts.reduce((sum, a) => {
    const [whole = '0', frac = ''] = a.split('.');
    return sum + BigInt(whole) * 100n + BigInt((frac + '00').slice(0, 2));
  }, 0n);
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

/**
 * `' 1234.5'` → `'1234.50'`. A transfer is of more than 0 with at most two decimals (the schema's
 * ActiveOrHistoricCurrencyAndAmount; a negative amount wrote `-4.-50`): anything else is the caller's mistake.
 */
function amountText(a: string): string {
  const text = a.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text) || /^0*(\.0*)?$/.test(text)) throw new Error(`SEPA: a transfer of ${JSON.stringify(a)} cannot be written`);
  return sumAmounts([text]);
}

/** `<PstlAdr>` (PostalAddress6 as the EPC guidelines use it: `Ctry` and up to two `AdrLine`), or nothing. */
function postalAddress(address: SepaTransfer['creditorAddress']): string {
  const lines = (address?.lines ?? []).filter((l) => l.trim() !== '').slice(0, 2).map((l) => `<AdrLine>${xml(sepaText(l, 70))}</AdrLine>`);
  const country = address?.country ? `<Ctry>${xml(address.country)}</Ctry>` : '';
  return lines.length > 0 || country ? `<PstlAdr>${country}${lines.join('')}</PstlAdr>` : '';
}

/** The pain.001.001.03 document for these transfers, debited from the office's account. */
export function sepaCreditTransfer(input: {
  messageId: string;
  /** When the file was made, as the office's clock shows it, with the zone's offset (`2026-11-29T10:15:00+01:00`). */
  createdAt: string;
  debtor: SepaDebtor;
  transfers: readonly SepaTransfer[];
}): string {
  const { debtor, transfers } = input;
  // Every amount checked before any is summed.
  for (const t of transfers) amountText(t.amount);
  const debtorName = xml(sepaText(debtor.name, 70));
  const debtorIban = debtor.iban.replace(/\s+/g, '').toUpperCase();
  const debtorBic = debtor.bic.replace(/\s+/g, '').toUpperCase();
  const byDate = new Map<string, SepaTransfer[]>();
  for (const t of transfers) byDate.set(t.executionDate, [...(byDate.get(t.executionDate) ?? []), t]);
  const blocks = [...byDate.entries()].sort(([a], [b]) => a.localeCompare(b));
  const lines: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    '<CstmrCdtTrfInitn>',
    '<GrpHdr>',
    `<MsgId>${xml(sepaText(input.messageId, 35))}</MsgId>`,
    `<CreDtTm>${xml(input.createdAt)}</CreDtTm>`,
    `<NbOfTxs>${transfers.length}</NbOfTxs>`,
    `<CtrlSum>${sumAmounts(transfers.map((t) => t.amount))}</CtrlSum>`,
    `<InitgPty><Nm>${debtorName}</Nm></InitgPty>`,
    '</GrpHdr>',
  ];
  blocks.forEach(([date, block], n) => {
    lines.push(
      '<PmtInf>',
      `<PmtInfId>${xml(sepaText(`${input.messageId}-${n + 1}`, 35))}</PmtInfId>`,
      '<PmtMtd>TRF</PmtMtd>',
      '<BtchBookg>true</BtchBookg>',
      `<NbOfTxs>${block.length}</NbOfTxs>`,
      `<CtrlSum>${sumAmounts(block.map((t) => t.amount))}</CtrlSum>`,
      '<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf>',
      `<ReqdExctnDt>${date}</ReqdExctnDt>`,
      `<Dbtr><Nm>${debtorName}</Nm></Dbtr>`,
      `<DbtrAcct><Id><IBAN>${xml(debtorIban)}</IBAN></Id></DbtrAcct>`,
      `<DbtrAgt><FinInstnId><BIC>${xml(debtorBic)}</BIC></FinInstnId></DbtrAgt>`,
      '<ChrgBr>SLEV</ChrgBr>',
    );
    for (const t of block) {
      lines.push(
        '<CdtTrfTxInf>',
        `<PmtId><EndToEndId>${xml(sepaText(t.endToEndId, 35))}</EndToEndId></PmtId>`,
        `<Amt><InstdAmt Ccy="EUR">${amountText(t.amount)}</InstdAmt></Amt>`,
        `<CdtrAgt><FinInstnId><BIC>${xml(t.bic.replace(/\s+/g, '').toUpperCase())}</BIC></FinInstnId></CdtrAgt>`,
        `<Cdtr><Nm>${xml(sepaText(t.creditorName, SEPA_NAME_MAX))}</Nm>${postalAddress(t.creditorAddress)}</Cdtr>`,
        `<CdtrAcct><Id><IBAN>${xml(t.iban.replace(/\s+/g, '').toUpperCase())}</IBAN></Id></CdtrAcct>`,
        `<RmtInf><Ustrd>${xml(sepaText(t.remittance, 140))}</Ustrd></RmtInf>`,
        '</CdtTrfTxInf>',
      );
    }
    lines.push('</PmtInf>');
  });
  lines.push('</CstmrCdtTrfInitn>', '</Document>', '');
  return lines.join('\n');
}
