import { electronicFormatIBAN, isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';
import { sepaNameWritable } from './sepa.js';

/** Whose bank data a payment needs: the university's for a university fee, the student's otherwise. */
export interface Payee {
  /** Whom messages name: the record that holds the bank data (the student, not an account holder they named). */
  name: string;
  /** The account holder's name as the bank file gives it (decision 034); `name` when not given. */
  holder?: string;
  iban: string | null;
  bic: string | null;
}

/**
 * Why the payee cannot be paid through the SEPA file, or null when the bank data is complete and valid
 * (ibantools): an IBAN of a country in the SEPA area, a BIC, and a holder's name the SEPA character set can carry.
 */
export function bankDataProblem(payee: Payee): string | null {
  const iban = payee.iban ? electronicFormatIBAN(payee.iban) : null;
  if (!iban) return `${payee.name} has no IBAN`;
  if (!isValidIBAN(iban)) return `The IBAN of ${payee.name} is not valid`;
  if (!isSEPACountry(iban.slice(0, 2))) return `The IBAN of ${payee.name} is of a bank outside the SEPA area (${iban.slice(0, 2)}): a SEPA transfer cannot reach it`;
  const bic = payee.bic?.replace(/\s+/g, '').toUpperCase();
  if (!bic) return `${payee.name} has no BIC`;
  if (!isValidBIC(bic)) return `The BIC of ${payee.name} is not valid`;
  if (!sepaNameWritable(payee.holder ?? payee.name)) {
    return `The account holder's name of ${payee.name} has no Latin letters, which the SEPA file needs: give it in Latin letters as the payment holder`;
  }
  return null;
}
