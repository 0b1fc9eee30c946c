import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { actionsOf } from '@app/contracts';
import { fieldSchema } from '../machinery/fields/required';
import { resourceUis } from './registry';

/**
 * A text area takes several lines, a text input one (decision 060): the schema a field saves through must agree
 * with how the screen draws it, or a typed address is refused for its line breaks, or a name keeps one.
 */
const editable = resourceUis.flatMap(({ descriptor, fields }) => [
  ...(fields ?? []).flatMap((def) => {
    const schema = def.readOnly ? undefined : fieldSchema(descriptor.createSchema, def.name);
    return schema && (def.kind === 'text' || def.kind === 'textarea') ? [{ key: `${descriptor.key}.${def.name}`, kind: def.kind, schema }] : [];
  }),
  // The fields an action asks (a refund's reason).
  ...actionsOf(descriptor).flatMap((action) =>
    (action.fields ?? []).flatMap((def) => {
      const schema = action.input instanceof z.ZodObject ? fieldSchema(action.input, def.name) : undefined;
      return schema && (def.kind === 'text' || def.kind === 'textarea') ? [{ key: `${descriptor.key}.${action.name}.${def.name}`, kind: def.kind, schema }] : [];
    }),
  ),
]);

describe('text fields and their schemas', () => {
  it('finds the text areas: comments and the university addresses', () => {
    expect(editable.filter((f) => f.kind === 'textarea').map((f) => f.key).sort()).toEqual([
      'contract.comments',
      'invoice.comments',
      'invoice_payment.comments',
      'scholarship_payment.comments',
      'student.comments',
      'university.payment_bank_address',
      'university.payment_holder_address',
    ]);
  });

  for (const field of editable) {
    it(`${field.key} (${field.kind}) ${field.kind === 'textarea' ? 'keeps' : 'refuses'} a line break`, () => {
      const result = field.schema.safeParse('First line\nSecond line');
      if (field.kind === 'text') expect(result.success).toBe(false);
      else expect(result.error?.issues.filter((i) => /one line|control/.test(i.message)) ?? []).toEqual([]);
    });
  }
});
