import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CountryCreateSchema, optionalText, requiredText, ScholarshipPaymentCreateSchema } from '@app/contracts';
import { fieldSchema, isRequiredSchema, requiredByRules } from './required';

describe('required from the schema', () => {
  it('is required when the schema takes neither missing, null nor empty', () => {
    expect(isRequiredSchema(requiredText('Name'))).toBe(true);
    expect(isRequiredSchema(z.boolean())).toBe(true);
    expect(isRequiredSchema(z.number())).toBe(true);
    expect(isRequiredSchema(optionalText('Comments'))).toBe(false);
    expect(isRequiredSchema(z.number().default(0))).toBe(false);
    expect(isRequiredSchema(undefined)).toBe(false);
  });

  it('reads the fields of the country create schema', () => {
    expect(isRequiredSchema(fieldSchema(CountryCreateSchema, 'cntry_code'))).toBe(true);
    expect(isRequiredSchema(fieldSchema(CountryCreateSchema, 'cntry_name'))).toBe(true);
    expect(fieldSchema(CountryCreateSchema, 'edit_timestamp')).toBeUndefined();
  });

  it('a rule across fields requires a field its own schema leaves optional: a university fee names its invoice', () => {
    const names = ['contract_id', 'scholarship_payment_type_id', 'amount', 'linked_invoice_id', 'comments'];
    const values = { contract_id: null, scholarship_payment_type_id: 2, amount: null, linked_invoice_id: null, comments: null };
    expect(requiredByRules(ScholarshipPaymentCreateSchema, values, names)).toEqual(['linked_invoice_id']);
    expect(requiredByRules(ScholarshipPaymentCreateSchema, { ...values, scholarship_payment_type_id: 1 }, names)).toEqual([]);
  });
});
