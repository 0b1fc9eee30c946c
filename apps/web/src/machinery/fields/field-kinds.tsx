import { useState, type ComponentProps, type ComponentType, type KeyboardEvent } from 'react';
import { Box, Checkbox, Group, Input, NumberInput, PasswordInput, Select, Textarea, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { formatMoney, isSearchedChoiceList, parseAmount, type SearchedChoiceListName } from '@app/contracts';
import { formatDateTime, officeToday } from '../../lib/format';
import type { QueryValue } from '../../lib/api-client';
import { useChoices, useSearchedChoices } from '../choices/use-choices';
import { DATE_FORMAT, formatDate, parseTypedDate, wireDate } from './dates';
import type { FieldDef, FieldInputProps, FieldKind, SelectOption } from './types';

export interface FieldKindSpec {
  /** The row's value (as the API answers it) → the input's value. */
  toForm: (wire: unknown, def: FieldDef) => unknown;
  /** The input's value → what is validated and sent. Empty inputs become null. */
  toWire: (form: unknown, def: FieldDef) => unknown;
  /** A message when the input holds something the kind cannot turn into a wire value (a mistyped date). */
  invalid?: (form: unknown, def: FieldDef) => string | undefined;
  /** A filter's wire value → its query parameters; by default one parameter named after the field. */
  toParams?: (wire: unknown, def: FieldDef) => Record<string, QueryValue>;
  /** Remembered query parameters → the filter's wire value. */
  fromParams?: (params: Record<string, unknown>, def: FieldDef) => unknown;
  Input: ComponentType<FieldInputProps>;
  /**
   * Its input opens a calendar as it gets focus (Mantine's DateInput): a dialog does not focus it on opening, or
   * the calendar would cover the dialog's buttons (most such fields may stay empty: "Empty: today").
   */
  opensOnFocus?: true;
}

/**
 * A read-only input is no stop of the Tab key: in edit mode Tab goes from one field that can be changed to the
 * next, not through the record's number, amounts and history. It is still read (and found by its label).
 */
const skipTab = (readOnly: boolean) => (readOnly ? -1 : undefined);

/** What every input shares: label, asterisk for required fields, the error below, read-only look. */
function inputProps({ def, error, required, readOnly, autoFocus }: FieldInputProps) {
  return {
    'data-autofocus': autoFocus || undefined,
    label: def.label,
    description: def.description,
    placeholder: readOnly ? undefined : def.placeholder,
    error,
    withAsterisk: required && !readOnly,
    'aria-required': required && !readOnly,
    readOnly,
    tabIndex: skipTab(readOnly),
    variant: readOnly ? 'filled' : 'default',
    size: 'sm',
  } as const;
}

/** Optional inputs get a clear button; required ones never (spec §2). */
const clearable = ({ required, readOnly }: FieldInputProps) => !required && !readOnly;
/**
 * Buttons inside a field are named by their title: an aria-label holding the field's label would make the
 * label match the button as well as the input (`getByLabel('Date')` must find the date alone).
 */
const clearLabel = (def: FieldDef) => ({ title: `Clear ${def.label}` });

/**
 * Escape in a date input closes its calendar; the attribute keeps Mantine's Modal from also closing (and
 * dropping what was typed into a dialog such as Bulk Edit).
 */
const calendarEscape = { 'data-mantine-stop-propagation': true } as const;

/**
 * Enter in a date input applies the filter or the form, and its calendar closes as on Escape (Mantine keeps it
 * open on Enter): open, it covered the error below the field and a filter card's Reset and Filter buttons, and a
 * click meant for them landed in it.
 */
const closeCalendar = (e: KeyboardEvent<HTMLInputElement>) => {
  e.currentTarget.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
};

const text = (form: unknown) => (typeof form === 'string' ? form : '');

function TextField(props: FieldInputProps & { type?: 'text' | 'email' | 'tel' }) {
  const { value, onChange, type = 'text' } = props;
  return <TextInput {...inputProps(props)} type={type} value={text(value)} onChange={(e) => onChange(e.currentTarget.value)} />;
}

const EmailField = (props: FieldInputProps) => <TextField {...props} type="email" />;
const PhoneField = (props: FieldInputProps) => <TextField {...props} type="tel" />;

function TextareaField(props: FieldInputProps) {
  const { value, onChange } = props;
  return <Textarea {...inputProps(props)} rows={4} value={text(value)} onChange={(e) => onChange(e.currentTarget.value)} />;
}

function PasswordField(props: FieldInputProps) {
  const { value, onChange } = props;
  return (
    <PasswordInput
      {...inputProps(props)}
      autoComplete="new-password"
      value={text(value)}
      onChange={(e) => onChange(e.currentTarget.value)}
      visibilityToggleButtonProps={{ title: `Show typed characters of ${props.def.label}` }}
    />
  );
}

const numeric = (form: unknown): number | '' => (typeof form === 'number' && Number.isFinite(form) ? form : '');

/**
 * Mantine's NumberInput (react-number-format) is left to keep its own text while the user types: fed back as a
 * controlled value, its reformatting loses keystrokes, e.g. the first digit typed over a selected number. A value
 * that did not come from the input itself (a loaded record, Undo Edit, Reset) starts the input afresh. (Amounts
 * are a text input of their own, `MoneyField`.)
 */
function useOwnText(value: unknown, onChange: (value: unknown) => void) {
  const [generation, setGeneration] = useState(0);
  // The value the input last showed: what it was started with, or what it last reported.
  const [known, setKnown] = useState(value);
  if (!Object.is(value, known)) {
    // Adjusting state during render, React's pattern for "start afresh when a prop changes".
    setKnown(value);
    setGeneration((g) => g + 1);
  }
  return {
    key: generation,
    defaultValue: numeric(value),
    onChange: (next: number | string) => {
      setKnown(next);
      onChange(next);
    },
  };
}

function NumberField(props: FieldInputProps) {
  const own = useOwnText(props.value, props.onChange);
  return (
    <NumberInput
      {...inputProps(props)}
      key={own.key}
      defaultValue={own.defaultValue}
      onChange={own.onChange}
      allowDecimal={false}
      hideControls
      thousandSeparator={false}
    />
  );
}

/**
 * Euro amounts as everywhere else (`€ 1.234,50`, DESIGN §6): two decimals, step 0.01 (spec §5, §9); a typed `.`
 * or `,` both start the cents. The value is a JSON number.
 */
/** An amount as every list shows it (`€ 1.234,50`); a text that is no amount, as typed. */
function shownAmount(value: unknown): string {
  if (typeof value === 'number') return formatMoney(value);
  return typeof value === 'string' ? value : '';
}

/**
 * An amount, typed in either convention and read as `parseAmount` reads it (decision 051): `1.500` is fifteen
 * hundred, as the field shows it (`€ 1.500,00`); `12.50` and `12,50` are twelve fifty. While the user types, the
 * text is theirs and the form holds the amount it reads, or the text itself when it is none (`12a0`), which the
 * kind refuses by name: nothing typed is dropped in silence. Left, the field shows the amount formatted.
 */
function MoneyField(props: FieldInputProps) {
  const { value, onChange, readOnly } = props;
  const [typing, setTyping] = useState<string | null>(null);
  return (
    <TextInput
      {...inputProps(props)}
      value={typing ?? shownAmount(value)}
      onFocus={() => {
        if (!readOnly) setTyping(shownAmount(value));
      }}
      onChange={(e) => {
        if (readOnly) return;
        const typed = e.currentTarget.value;
        setTyping(typed);
        onChange(typed.trim() === '' ? '' : (parseAmount(typed) ?? typed));
      }}
      onBlur={() => setTyping(null)}
      inputMode="decimal"
    />
  );
}

/**
 * A date with a calendar. A text that is no date ("31-02-2001") is not dropped in silence when the field is left:
 * it becomes the field's value as typed, which the kind refuses with a message naming it (`invalid`), so the
 * field shows the error and Save waits. The input itself shows the last date it held (Mantine's own on blur).
 */
function DateField(props: FieldInputProps) {
  const { def, value, onChange, readOnly } = props;
  const keepTyped = (text: string) => {
    const typed = text.trim();
    if (!readOnly && typed !== '' && parseTypedDate(typed) === null) onChange(typed);
  };
  return (
    <DateInput
      {...inputProps(props)}
      placeholder={readOnly ? undefined : (def.placeholder ?? DATE_FORMAT)}
      value={wireDate(value)}
      onChange={(v) => onChange(v ?? null)}
      onBlur={(e) => keepTyped(e.currentTarget.value)}
      // Enter sends a filter or form without leaving the field: what was typed is kept first, so it is refused by name.
      onKeyDown={(e) => {
        if (e.key !== 'Enter') return;
        keepTyped(e.currentTarget.value);
        closeCalendar(e);
      }}
      valueFormat={DATE_FORMAT}
      dateParser={parseTypedDate}
      // Not maxDate: a date typed past it would be dropped without a word; it is refused by name instead (invalid).
      excludeDate={def.notAfterToday ? (day) => day > officeToday() : undefined}
      clearable={clearable(props)}
      clearButtonProps={clearLabel(def)}
      popoverProps={{ withinPortal: true }}
      {...calendarEscape}
    />
  );
}

/** A date typed as DD-MM-YYYY into a plain text box (no calendar). */
function SimpleDateField(props: FieldInputProps) {
  const { def, value, onChange, readOnly } = props;
  return (
    <TextInput
      {...inputProps(props)}
      placeholder={readOnly ? undefined : (def.placeholder ?? DATE_FORMAT)}
      value={text(value)}
      onChange={(e) => onChange(e.currentTarget.value)}
      autoComplete="off"
    />
  );
}

interface Range {
  from: string | null;
  to: string | null;
}

const rangeOf = (form: unknown): Range => {
  const r = (typeof form === 'object' && form !== null ? form : {}) as Partial<Range>;
  return { from: r.from ?? null, to: r.to ?? null };
};

/** Two dates, from and to (e.g. the event time of the log filter). */
function DateRangeField(props: FieldInputProps) {
  const { def, value, onChange, error, readOnly } = props;
  const range = rangeOf(value);
  const part = (key: keyof Range, word: string) => (
    <DateInput
      aria-label={`${def.label} ${word}`}
      placeholder={readOnly ? undefined : `${word[0]!.toUpperCase()}${word.slice(1)} (${DATE_FORMAT})`}
      value={range[key]}
      onChange={(v) => onChange({ ...range, [key]: v ?? null })}
      valueFormat={DATE_FORMAT}
      dateParser={parseTypedDate}
      clearable={clearable(props)}
      clearButtonProps={{ title: `Clear ${def.label} ${word}` }}
      readOnly={readOnly}
      tabIndex={skipTab(readOnly)}
      variant={readOnly ? 'filled' : 'default'}
      error={Boolean(error)}
      popoverProps={{ withinPortal: true }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') closeCalendar(e);
      }}
      {...calendarEscape}
      size="sm"
    />
  );
  return (
    <Input.Wrapper label={def.label} labelElement="div" description={def.description} error={error} size="sm">
      <Group gap="xs" grow wrap="nowrap" mt={4}>
        {part('from', 'from')}
        {part('to', 'to')}
      </Group>
    </Input.Wrapper>
  );
}

interface SelectInputProps extends FieldInputProps {
  options: readonly SelectOption[];
  searchable?: boolean;
  loading?: boolean;
  /** The options are the server's matches of the typed text: shown as they are, the text sent on. */
  onSearch?: (text: string) => void;
}

/** Options the server has matched already (accents and word order aside) are not filtered again by their label. */
const allOptions: NonNullable<ComponentProps<typeof Select>['filter']> = ({ options }) => options;

const LONG_LIST = 1000;
const LONG_LIST_SHOWN = 100;

/** A Mantine Select over options whose values keep their type (ids stay numbers, type names texts). */
function SelectInput(props: SelectInputProps) {
  const { def, value, onChange, options, searchable, required, readOnly } = props;
  const data = options.map((o) => ({ value: String(o.value), label: o.label }));
  const selected = value === null || value === undefined || value === '' ? null : String(value);
  return (
    <Select
      {...inputProps(props)}
      data={data}
      value={selected}
      onChange={(v) => onChange(v === null ? null : (options.find((o) => String(o.value) === v)?.value ?? null))}
      searchable={searchable && !readOnly}
      nothingFoundMessage={props.loading ? 'Loading…' : 'Nothing found'}
      clearable={clearable(props)}
      // Mantine hides a select's clear button from assistive technology; it is named and shown here.
      clearButtonProps={{ ...clearLabel(def), 'aria-hidden': false }}
      allowDeselect={!required}
      comboboxProps={{ withinPortal: true }}
      // Long lists (every student) draw only the first matches of what is typed, not thousands of options.
      limit={data.length > LONG_LIST ? LONG_LIST_SHOWN : undefined}
      {...(props.onSearch && { onSearchChange: props.onSearch, filter: allOptions })}
    />
  );
}

/** Typing stops this long before the server is asked for the matches. */
const SEARCH_PAUSE_MS = 300;

function SearchedChoiceSelect(props: FieldInputProps & { choices: SearchedChoiceListName }) {
  const [text, setText] = useState('');
  const [term] = useDebouncedValue(text.trim(), SEARCH_PAUSE_MS);
  const held = props.value === null || props.value === undefined || props.value === '' ? undefined : Number(props.value);
  const { choices, isLoading } = useSearchedChoices(props.choices, term, held, props.def.choiceParams);
  const options = choices.map((c) => ({ value: c.id, label: c.name }));
  return <SelectInput {...props} options={options} searchable loading={isLoading} onSearch={setText} />;
}

function ChoiceSelect(props: FieldInputProps & { choices: NonNullable<FieldDef['choices']> }) {
  const { choices, isLoading } = useChoices(props.choices, props.def.choiceParams);
  const options = choices.map((c) => ({ value: c.id, label: c.name }));
  return <SelectInput {...props} options={options} searchable loading={isLoading} />;
}

function SelectField(props: FieldInputProps) {
  const { choices, options } = props.def;
  if (choices && isSearchedChoiceList(choices)) return <SearchedChoiceSelect {...props} choices={choices} />;
  if (choices) return <ChoiceSelect {...props} choices={choices} />;
  return <SelectInput {...props} options={options ?? []} searchable={(options?.length ?? 0) > 10} />;
}

const YES_NO: readonly SelectOption[] = [
  { value: true, label: 'Yes' },
  { value: false, label: 'No' },
];

/** A checkbox, or Yes / No / empty where the field allows no value (filters). */
function BooleanField(props: FieldInputProps) {
  const { def, value, onChange, error, readOnly } = props;
  if (def.allowEmpty) return <SelectInput {...props} options={YES_NO} />;
  return (
    <Box pt={{ base: 0, sm: 26 }}>
      <Checkbox
        label={def.label}
        description={def.description}
        error={error}
        checked={value === true}
        onChange={(e) => {
          if (!readOnly) onChange(e.currentTarget.checked);
        }}
        readOnly={readOnly}
        aria-readonly={readOnly}
        tabIndex={skipTab(readOnly)}
        size="sm"
      />
    </Box>
  );
}

const toText = (wire: unknown) => (wire === null || wire === undefined ? '' : String(wire));
const textToWire = (form: unknown) => (typeof form === 'string' && form !== '' ? form : null);

/** An IBAN is stored without spaces and shown in groups of four, as printed on bank statements. */
const groupIban = (wire: unknown) => toText(wire).replace(/(.{4})(?=.)/g, '$1 ');
const ibanToWire = (form: unknown) => textToWire(text(form).replace(/\s+/g, '').toUpperCase());

function toNumber(wire: unknown): number | '' {
  if (typeof wire === 'number' && Number.isFinite(wire)) return wire;
  if (typeof wire === 'string' && wire.trim() !== '' && Number.isFinite(Number(wire))) return Number(wire);
  return '';
}

function numberToWire(form: unknown): unknown {
  if (typeof form === 'number') return Number.isFinite(form) ? form : null;
  if (typeof form !== 'string' || form.trim() === '') return null;
  const n = Number(form);
  // Half-typed input ('-') goes to the schema as it is and fails there with the field's own message.
  return Number.isFinite(n) ? n : form;
}

const roundCents = (n: number) => Math.round(n * 100) / 100;

function toBoolean(wire: unknown, def: FieldDef): boolean | null {
  if (typeof wire === 'boolean') return wire;
  if (wire === 'true') return true;
  if (wire === 'false') return false;
  return def.allowEmpty ? null : false;
}

function optionValue(wire: unknown, def: FieldDef): unknown {
  if (wire === null || wire === undefined || wire === '') return null;
  // Remembered filters and route presets arrive as texts: find the option they stand for.
  const inline = def.options?.find((o) => String(o.value) === String(wire));
  if (inline) return inline.value;
  if (typeof wire === 'string' && (def.choices ?? def.choicesFor) && /^\d+$/.test(wire)) return Number(wire);
  return wire;
}

/**
 * A moment the server records (an e-mail sent, an export), shown as the overviews show it: DD-MM-YYYY HH:mm in the
 * office's time zone (spec §9), never the wire's UTC text. Shown only: it is never typed, and never sent.
 */
const TimestampField = (props: FieldInputProps) => <TextField {...props} readOnly />;

const textKind = (Input: ComponentType<FieldInputProps>): FieldKindSpec => ({ toForm: toText, toWire: textToWire, Input });

/** Field kind → how it converts values and which Mantine input draws it. Add a kind here, nowhere else. */
export const fieldKinds: Record<FieldKind, FieldKindSpec> = {
  text: textKind(TextField),
  email: textKind(EmailField),
  phone: textKind(PhoneField),
  iban: { toForm: groupIban, toWire: ibanToWire, Input: TextField },
  textarea: textKind(TextareaField),
  password: {
    // Write only: a password is never shown, and an empty one is simply not sent.
    toForm: () => '',
    toWire: (form) => (typeof form === 'string' && form !== '' ? form : undefined),
    Input: PasswordField,
  },
  number: { toForm: toNumber, toWire: numberToWire, Input: NumberField },
  money: {
    toForm: toNumber,
    toWire: (form) => {
      // Typed text is read as the field reads it; text that is no amount goes on as it is and fails by name.
      const wire = typeof form === 'string' && form.trim() !== '' ? (parseAmount(form) ?? form) : numberToWire(form);
      return typeof wire === 'number' ? roundCents(wire) : wire;
    },
    invalid: (form) => (typeof form === 'string' && form.trim() !== '' && parseAmount(form) === null ? `"${form}" is not an amount: enter it as 1.234,56` : undefined),
    Input: MoneyField,
  },
  date: {
    toForm: wireDate,
    toWire: (form) => wireDate(form),
    // What was typed and is no date (DateField keeps it as the value): refused with what it was.
    invalid: (form, def) => {
      if (typeof form === 'string' && form.trim() !== '' && wireDate(form) === null) return `"${form}" is not a date: enter it as ${DATE_FORMAT}`;
      const day = wireDate(form);
      return def.notAfterToday && day !== null && day > officeToday() ? `${def.label} cannot be in the future` : undefined;
    },
    Input: DateField,
    opensOnFocus: true,
  },
  simpleDate: {
    toForm: (wire) => formatDate(wireDate(wire)),
    toWire: (form) => {
      const typed = text(form);
      if (typed.trim() === '') return null;
      // A mistyped date is passed on as typed, so it can never pass as a valid one.
      return parseTypedDate(typed) ?? typed;
    },
    invalid: (form) => {
      const typed = text(form);
      return typed.trim() !== '' && !parseTypedDate(typed) ? `Enter the date as ${DATE_FORMAT}` : undefined;
    },
    Input: SimpleDateField,
  },
  timestamp: {
    toForm: (wire) => formatDateTime(typeof wire === 'string' ? wire : null),
    toWire: () => undefined,
    Input: TimestampField,
  },
  dateRange: {
    toForm: (wire) => {
      const [from, to] = Array.isArray(wire) ? wire : [];
      return { from: wireDate(from), to: wireDate(to) };
    },
    toWire: (form) => {
      const { from, to } = rangeOf(form);
      return from === null && to === null ? null : [from, to];
    },
    invalid: (form) => {
      const { from, to } = rangeOf(form);
      return from && to && from > to ? 'The start date is after the end date' : undefined;
    },
    toParams: (wire, def) => {
      const [from, to] = Array.isArray(wire) ? (wire as (string | null)[]) : [];
      return { [`${def.name}_from`]: from ?? undefined, [`${def.name}_to`]: to ?? undefined };
    },
    fromParams: (params, def) => [params[`${def.name}_from`] ?? null, params[`${def.name}_to`] ?? null],
    Input: DateRangeField,
    opensOnFocus: true,
  },
  boolean: {
    toForm: toBoolean,
    toWire: (form, def) => (def.allowEmpty ? (typeof form === 'boolean' ? form : null) : form === true),
    Input: BooleanField,
  },
  select: { toForm: optionValue, toWire: (form) => (form === '' || form === undefined ? null : form), Input: SelectField },
};
