import type { ComponentType } from 'react';
import { TextInput } from '@mantine/core';
import type { FieldInputProps, FieldKind } from './types';

export interface FieldKindSpec {
  /** The row's value (as the API answers it) → the input's value. */
  toForm: (wire: unknown) => unknown;
  /** The input's value → what is validated and sent. Empty inputs become null. */
  toWire: (form: unknown) => unknown;
  Input: ComponentType<FieldInputProps>;
}

function TextField({ def, value, onChange, error, required, readOnly }: FieldInputProps) {
  return (
    <TextInput
      label={def.label}
      description={def.description}
      placeholder={readOnly ? undefined : def.placeholder}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      withAsterisk={required && !readOnly}
      aria-required={required && !readOnly}
      readOnly={readOnly}
      variant={readOnly ? 'filled' : 'default'}
      size="sm"
    />
  );
}

/** Field kind → how it converts values and which Mantine input draws it. Add a kind here, nowhere else. */
export const fieldKinds: Record<FieldKind, FieldKindSpec> = {
  text: {
    toForm: (wire) => (wire === null || wire === undefined ? '' : String(wire)),
    toWire: (form) => (typeof form === 'string' && form !== '' ? form : null),
    Input: TextField,
  },
};
