import { fieldKinds } from './field-kinds';
import type { FieldInputProps } from './types';

/** Draws one declared field with the input of its kind. */
export function Field(props: FieldInputProps) {
  const { Input } = fieldKinds[props.def.kind];
  return <Input {...props} />;
}
