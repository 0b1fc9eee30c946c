import { useState } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { theme } from '../../lib/theme';
import { stubApi, type ApiStub } from '../../test/api-stub';
import { choiceList, scholarships } from '../../test/fixtures';
import { Field } from './field';
import type { FieldDef } from './types';
import { kindError, toFormValue, toWireValue } from './values';

interface Options {
  value?: unknown;
  required?: boolean;
  readOnly?: boolean;
  api?: ApiStub;
}

/** One field as the detail screen draws it, its wire value read after every change. */
function renderField(def: FieldDef, { value, required = false, readOnly = false, api = stubApi() }: Options = {}) {
  const wires: unknown[] = [];
  function Harness() {
    const [form, setForm] = useState(() => toFormValue(def, value));
    return (
      <Field
        def={def}
        value={form}
        onChange={(v) => {
          setForm(v);
          wires.push(toWireValue(def, v));
        }}
        error={kindError(def, form)}
        required={required}
        readOnly={readOnly}
      />
    );
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider theme={theme} env="test">
      <QueryClientProvider client={client}>
        <Harness />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { user: userEvent.setup({ delay: null }), wire: () => wires.at(-1), wires, api };
}

const input = (label: string | RegExp) => screen.getByLabelText(label) as HTMLInputElement;
/** A select's input (its hidden option list carries the same label). */
const combo = (label: string | RegExp) => screen.getByRole('combobox', { name: label }) as HTMLInputElement;

describe('field kinds', () => {
  it('timestamp: shows the moment in the office time zone as DD-MM-YYYY HH:mm, cannot be typed into, and is never sent', async () => {
    const def: FieldDef = { name: 'exported_timestamp', label: 'Exported', kind: 'timestamp' };
    const { user, wires } = renderField(def, { value: '2026-03-06T09:30:00.000Z' });
    expect(input('Exported')).toHaveValue('06-03-2026 10:30');
    expect(input('Exported')).toHaveAttribute('readonly');
    await user.type(input('Exported'), '1');
    expect(input('Exported')).toHaveValue('06-03-2026 10:30');
    expect(wires).toEqual([]);
    expect(toWireValue(def, '06-03-2026 10:30')).toBeUndefined();
    expect(toFormValue(def, null)).toBe('');
  });

  it('text: shows the value, sends what is typed, and null when emptied', async () => {
    const { user, wire } = renderField({ name: 'name', label: 'Name', kind: 'text' }, { value: 'Ada', required: true });
    expect(input(/^Name/)).toHaveValue('Ada');
    expect(input(/^Name/)).toHaveAttribute('aria-required', 'true');
    await user.type(input(/^Name/), ' L');
    expect(wire()).toBe('Ada L');
    await user.clear(input(/^Name/));
    expect(wire()).toBeNull();
  });

  it('iban: shown in groups of four, sent without spaces in capitals', async () => {
    const { user, wire } = renderField({ name: 'iban', label: 'IBAN', kind: 'iban' }, { value: 'DE89370400440532013000' });
    expect(input(/^IBAN/)).toHaveValue('DE89 3704 0044 0532 0130 00');
    await user.clear(input(/^IBAN/));
    await user.type(input(/^IBAN/), 'nl91 abna 0417164300');
    expect(wire()).toBe('NL91ABNA0417164300');
    await user.clear(input(/^IBAN/));
    expect(wire()).toBeNull();
  });

  it('textarea: four rows, keeps line breaks', async () => {
    const { user, wire } = renderField({ name: 'address', label: 'Address', kind: 'textarea' }, { value: 'Main St 1' });
    const box = input(/^Address/);
    expect(box.tagName).toBe('TEXTAREA');
    expect(box).toHaveAttribute('rows', '4');
    await user.type(box, '{Enter}Berlin');
    expect(wire()).toBe('Main St 1\nBerlin');
  });

  it('password: hidden characters, never shows a value, sends nothing when empty', async () => {
    const { user, wire } = renderField({ name: 'pw', label: 'Password', kind: 'password' }, { value: 'stored-hash' });
    const box = input(/^Password$/);
    expect(box).toHaveAttribute('type', 'password');
    expect(box).toHaveValue('');
    await user.type(box, 'secret');
    expect(wire()).toBe('secret');
    await user.clear(box);
    expect(wire()).toBeUndefined();
  });

  it('email and phone: typed inputs sending their text', async () => {
    const email = renderField({ name: 'email_address', label: 'Email', kind: 'email' }, { value: 'a@b.org' });
    expect(input(/^Email/)).toHaveAttribute('type', 'email');
    await email.user.type(input(/^Email/), 'x');
    expect(email.wire()).toBe('a@b.orgx');

    const phone = renderField({ name: 'phone', label: 'Phone', kind: 'phone' });
    expect(input(/^Phone/)).toHaveAttribute('type', 'tel');
    await phone.user.type(input(/^Phone/), '+49 30 1234');
    expect(phone.wire()).toBe('+49 30 1234');
  });

  it('number: a JSON number, null when emptied', async () => {
    const { user, wire } = renderField({ name: 'intake', label: 'Intake', kind: 'number' }, { value: 2024 });
    expect(input(/^Intake/)).toHaveValue('2024');
    await user.clear(input(/^Intake/));
    expect(wire()).toBeNull();
    await user.type(input(/^Intake/), '2025');
    expect(wire()).toBe(2025);
  });

  it('money: shown as € 1.234,50 like every list, sent as a number with at most two decimals', async () => {
    const { user, wire } = renderField({ name: 'amount', label: 'Amount', kind: 'money' }, { value: 1234.5, required: true });
    const box = input(/^Amount/);
    expect(box).toHaveValue('€ 1.234,50');
    await user.clear(box);
    expect(wire()).toBeNull();
    await user.type(box, '99.99');
    expect(wire()).toBe(99.99);
    await user.tab();
    expect(box).toHaveValue('€ 99,99');
    // A comma starts the cents as well.
    await user.clear(box);
    await user.type(box, '4500,5');
    expect(wire()).toBe(4500.5);
    await user.tab();
    expect(box).toHaveValue('€ 4.500,50');
    expect(screen.queryByRole('button', { name: /clear/i })).not.toBeInTheDocument();
  });

  it('money: an amount typed as the field shows it is read so: 1.500 is fifteen hundred, never € 1,50 (decision 051)', async () => {
    const { user, wire } = renderField({ name: 'amount', label: 'Amount', kind: 'money' }, { value: 10 });
    const box = input(/^Amount/);
    for (const [typed, amount, shown] of [
      ['1.500', 1500, '€ 1.500,00'],
      ['1.234,56', 1234.56, '€ 1.234,56'],
      ['1,234.56', 1234.56, '€ 1.234,56'],
      ['€ 5.000,00', 5000, '€ 5.000,00'],
      ['-12,5', -12.5, '€ -12,50'],
    ] as const) {
      await user.clear(box);
      await user.type(box, typed);
      expect(wire(), typed).toBe(amount);
      await user.tab();
      expect(box, typed).toHaveValue(shown);
    }
  });

  it('money: letters are not dropped in silence: the text stays and is refused by name', async () => {
    const { user, wire } = renderField({ name: 'amount', label: 'Amount', kind: 'money' }, { value: 10 });
    const box = input(/^Amount/);
    await user.clear(box);
    await user.type(box, '12a0');
    await user.tab();
    expect(box).toHaveValue('12a0');
    expect(wire()).toBe('12a0');
    expect(kindError({ name: 'amount', label: 'Amount', kind: 'money' }, '12a0')).toBe('"12a0" is not an amount: enter it as 1.234,56');
    expect(kindError({ name: 'amount', label: 'Amount', kind: 'money' }, 1500)).toBeUndefined();
  });

  it('money: a pasted amount is read in either convention', async () => {
    const { user, wire } = renderField({ name: 'amount', label: 'Amount', kind: 'money' }, { value: 10 });
    await user.tripleClick(input(/^Amount/));
    await user.paste('1500.25');
    expect(wire()).toBe(1500.25);
    await user.tab();
    expect(input(/^Amount/)).toHaveValue('€ 1.500,25');
    await user.tripleClick(input(/^Amount/));
    await user.paste('€ 2.345,60');
    expect(wire()).toBe(2345.6);
  });

  it('money: a new value of 0 shows as € 0,00', () => {
    renderField({ name: 'amount', label: 'Amount', kind: 'money' }, { value: 0 });
    expect(input(/^Amount/)).toHaveValue('€ 0,00');
  });

  it('date: shows DD-MM-YYYY, sends YYYY-MM-DD, and an optional date has a clear button', async () => {
    const { user, wire } = renderField({ name: 'milestone_date', label: 'Date', kind: 'date' }, { value: '2024-03-05' });
    const box = input(/^Date/);
    expect(box).toHaveValue('05-03-2024');
    await user.clear(box);
    await user.type(box, '17-06-2025');
    expect(wire()).toBe('2025-06-17');
    await user.tab();
    expect(box).toHaveValue('17-06-2025');
    await user.click(screen.getByRole('button', { name: 'Clear Date' }));
    expect(wire()).toBeNull();
    expect(box).toHaveValue('');
  });

  it('date: picking a day in the calendar sends it', async () => {
    const { user, wire } = renderField({ name: 'milestone_date', label: 'Date', kind: 'date' }, { value: '2024-03-05' });
    await user.click(input(/^Date/));
    await user.click(await screen.findByRole('button', { name: '20 March 2024' }));
    expect(wire()).toBe('2024-03-20');
    expect(input(/^Date/)).toHaveValue('20-03-2024');
  });

  it('date: Enter keeps what was typed and closes the calendar, which would cover the buttons below', async () => {
    const { user, wire } = renderField({ name: 'milestone_date', label: 'Date', kind: 'date' });
    await user.click(input(/^Date/));
    await waitFor(() => expect(document.querySelector('[data-dates-dropdown]')).not.toBeNull());
    await user.type(input(/^Date/), '17-06-2025{Enter}');
    expect(wire()).toBe('2025-06-17');
    await waitFor(() => expect(document.querySelector('[data-dates-dropdown]')).toBeNull());
    expect(input(/^Date/)).toHaveFocus();
    await user.clear(input(/^Date/));
    await user.type(input(/^Date/), '99-99-9999{Enter}');
    await waitFor(() => expect(document.querySelector('[data-dates-dropdown]')).toBeNull());
    // Kept, and refused by name where the calendar no longer covers it.
    expect(screen.getByText('"99-99-9999" is not a date: enter it as DD-MM-YYYY')).toBeVisible();
  });

  it('date: a day after today is refused by name where the field says so', () => {
    renderField({ name: 'payment_date', label: 'Payment Date', kind: 'date', notAfterToday: true }, { value: '2099-01-01' });
    expect(screen.getByText('Payment Date cannot be in the future')).toBeInTheDocument();
  });

  it('date: a required date has no clear button', () => {
    renderField({ name: 'start_date', label: 'Start', kind: 'date' }, { value: '2024-03-05', required: true });
    expect(input(/^Start/)).toHaveAttribute('aria-required', 'true');
    expect(screen.queryByRole('button', { name: 'Clear Start' })).not.toBeInTheDocument();
  });

  it('simple date: typed as DD-MM-YYYY, sent as YYYY-MM-DD, a wrong date is reported', async () => {
    const { user, wire } = renderField({ name: 'birth_date', label: 'Birth date', kind: 'simpleDate' }, { value: '2001-09-11' });
    const box = input(/^Birth date/);
    expect(box).toHaveValue('11-09-2001');
    await user.clear(box);
    await user.type(box, '1-2-2003');
    expect(wire()).toBe('2003-02-01');
    expect(screen.queryByText('Enter the date as DD-MM-YYYY')).not.toBeInTheDocument();
    await user.clear(box);
    await user.type(box, '31-02-2003');
    expect(screen.getByText('Enter the date as DD-MM-YYYY')).toBeInTheDocument();
    expect(wire()).toBe('31-02-2003');
    await user.clear(box);
    expect(wire()).toBeNull();
  });

  it('date range: Enter in either date closes its calendar, as in a single date', async () => {
    const { user, wire } = renderField({ name: 'le_time', label: 'Event Time', kind: 'dateRange' });
    for (const [word, typed] of [['from', '30-11-2026'], ['to', '01-12-2026']] as const) {
      await user.click(input(`Event Time ${word}`));
      await waitFor(() => expect(document.querySelector('[data-dates-dropdown]')).not.toBeNull());
      await user.type(input(`Event Time ${word}`), `${typed}{Enter}`);
      await waitFor(() => expect(document.querySelector('[data-dates-dropdown]')).toBeNull());
    }
    expect(wire()).toEqual(['2026-11-30', '2026-12-01']);
  });

  it('date range: two dates, from and to, each optional', async () => {
    const def: FieldDef = { name: 'le_time', label: 'Event Time', kind: 'dateRange' };
    const { user, wire } = renderField(def, { value: ['2024-01-01', null] });
    expect(screen.getByText('Event Time')).toBeInTheDocument();
    expect(input('Event Time from')).toHaveValue('01-01-2024');
    expect(input('Event Time to')).toHaveValue('');
    await user.type(input('Event Time to'), '31-01-2024');
    expect(wire()).toEqual(['2024-01-01', '2024-01-31']);
    await user.click(screen.getByRole('button', { name: 'Clear Event Time from' }));
    expect(wire()).toEqual([null, '2024-01-31']);
    expect(toWireValue(def, { from: null, to: null })).toBeNull();
    expect(kindError(def, { from: '2024-02-01', to: '2024-01-31' })).toBe('The start date is after the end date');
  });

  it('boolean: a checkbox sending true or false', async () => {
    const { user, wire } = renderField({ name: 'usr_active', label: 'Active', kind: 'boolean' }, { value: true });
    const box = screen.getByRole('checkbox', { name: 'Active' });
    expect(box).toBeChecked();
    await user.click(box);
    expect(box).not.toBeChecked();
    expect(wire()).toBe(false);
  });

  it('boolean with an empty value: Yes, No or nothing', async () => {
    const { user, wire } = renderField({ name: 'open', label: 'Open', kind: 'boolean', allowEmpty: true });
    const box = combo(/^Open/);
    expect(box).toHaveValue('');
    await user.click(box);
    await user.click(await screen.findByRole('option', { name: 'No' }));
    expect(wire()).toBe(false);
    expect(box).toHaveValue('No');
    await user.click(box);
    await user.click(await screen.findByRole('option', { name: 'Yes' }));
    expect(wire()).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Clear Open' }));
    expect(wire()).toBeNull();
    expect(box).toHaveValue('');
  });

  it('select with inline options: sends the option value with its type; a required one has no clear button', async () => {
    const def: FieldDef = { name: 'year', label: 'Year', kind: 'select', options: [{ value: 1, label: '1' }, { value: 2, label: '2' }] };
    const { user, wire } = renderField(def, { value: 1, required: true });
    const box = combo(/^Year/);
    expect(box).toHaveValue('1');
    await user.click(box);
    await user.click(await screen.findByRole('option', { name: '2' }));
    expect(wire()).toBe(2);
    expect(screen.queryByRole('button', { name: 'Clear Year' })).not.toBeInTheDocument();
  });

  it('select from a choice list: loads the options, shows the name of the id, sends the id', async () => {
    const api = stubApi(choiceList('scholarships', scholarships));
    const def: FieldDef = { name: 'scholarship_id', label: 'Scholarship', kind: 'select', choices: 'scholarships' };
    const { user, wire } = renderField(def, { value: 2, api });
    const box = combo(/^Scholarship/);
    await waitFor(() => expect(box).toHaveValue('EMJM-B'));
    expect(api.sent('GET /scholarships/choice')).toHaveLength(1);
    await user.click(box);
    await user.clear(box);
    await user.type(box, 'NAT');
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(['NAT-C']);
    await user.click(within(listbox).getByRole('option', { name: 'NAT-C' }));
    expect(wire()).toBe(3);
    await user.click(screen.getByRole('button', { name: 'Clear Scholarship' }));
    expect(wire()).toBeNull();
  });

  it('select from a list searched on the server: asks for the typed text and the held id, shows the answer as it is', async () => {
    const api = stubApi({ 'GET /students/choice/search': { body: [{ id: 7, name: 'Muster, Max' }] } });
    const def: FieldDef = { name: 'student_id', label: 'Student', kind: 'select', choices: 'students' };
    const { user, wire } = renderField(def, { value: 7, api });
    const box = combo(/^Student/);
    await waitFor(() => expect(box).toHaveValue('Muster, Max'));
    expect(api.last('GET /students/choice/search')!.query.get('id')).toBe('7');
    expect(api.sent('GET /students/choice')).toHaveLength(0);
    // The server matches accents aside: "Müller" for "muller" is shown, not filtered away again by its label.
    api.on('GET /students/choice/search', { body: [{ id: 9, name: 'Müller, Jana' }] });
    await user.click(box);
    await user.clear(box);
    await user.type(box, 'muller');
    await waitFor(() => expect(api.last('GET /students/choice/search')!.query.get('search')).toBe('muller'));
    const listbox = await screen.findByRole('listbox');
    await user.click(await within(listbox).findByRole('option', { name: 'Müller, Jana' }));
    expect(wire()).toBe(9);
  });

  it('select from a searched list with parameters: the invoices of one contract, narrowed by the server', async () => {
    const api = stubApi({ 'GET /invoices/choice/search': { body: [{ id: 4, name: '2026-00004 · A000012 · Participation fee' }] } });
    const def: FieldDef = { name: 'invoice_id', label: 'Invoice', kind: 'select', choices: 'invoices', choiceParams: { contract_id: 12 } };
    const { user, wire } = renderField(def, { api });
    const box = combo(/^Invoice/);
    await waitFor(() => expect(api.last('GET /invoices/choice/search')!.query.get('contract_id')).toBe('12'));
    await user.click(box);
    await user.type(box, '2026');
    await waitFor(() => expect(api.last('GET /invoices/choice/search')!.query.get('search')).toBe('2026'));
    expect(api.last('GET /invoices/choice/search')!.query.get('contract_id')).toBe('12');
    await user.click(await within(await screen.findByRole('listbox')).findByRole('option', { name: /^2026-00004/ }));
    expect(wire()).toBe(4);
  });

  it('read-only: the same inputs, read-only, formatted the same way', async () => {
    const { user, wires } = renderField({ name: 'amount', label: 'Amount', kind: 'money' }, { value: 10, readOnly: true });
    expect(input(/^Amount/)).toHaveAttribute('readonly');
    expect(input(/^Amount/)).toHaveValue('€ 10,00');
    await user.type(input(/^Amount/), '5');
    expect(wires).toEqual([]);

    renderField({ name: 'milestone_date', label: 'Date', kind: 'date' }, { value: '2024-03-05', readOnly: true });
    expect(input(/^Date/)).toHaveAttribute('readonly');
    expect(input(/^Date/)).toHaveValue('05-03-2024');
    expect(screen.queryByRole('button', { name: 'Clear Date' })).not.toBeInTheDocument();

    const flag = renderField({ name: 'usr_active', label: 'Active', kind: 'boolean' }, { value: true, readOnly: true });
    await flag.user.click(screen.getByRole('checkbox', { name: 'Active' }));
    expect(screen.getByRole('checkbox', { name: 'Active' })).toBeChecked();
    expect(flag.wires).toEqual([]);

    renderField({ name: 'year', label: 'Year', kind: 'select', options: [{ value: 1, label: '1' }] }, { value: 1, readOnly: true });
    expect(combo(/^Year/)).toHaveAttribute('readonly');
    expect(combo(/^Year/)).toHaveValue('1');
    expect(screen.queryByRole('button', { name: 'Clear Year' })).not.toBeInTheDocument();
  });
});
