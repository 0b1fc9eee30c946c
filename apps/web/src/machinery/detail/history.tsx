import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Accordion, Alert, Loader, Stack, Table, Text } from '@mantine/core';
import {
  formatBool,
  formatDate,
  isSearchedChoiceList,
  logEventResource,
  resources,
  type AnyResource,
  type ChoiceListName,
  type LogEvent,
  type Paged,
  type SearchedChoiceListName,
} from '@app/contracts';
import { formatDateTime, formatValue } from '../../lib/format';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useChoices, useSearchedChoices } from '../choices/use-choices';
import type { FieldDef } from '../fields/types';

/** "contract_status_id" → "Contract status": a field no column names, in words. */
function humanized(field: string): string {
  const words = field.replace(/_id$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

const byValue = (list: ChoiceListName) => () => list;
const universities = { label: 'University', list: byValue('universities') };
const countries = { label: 'Country', list: byValue('countries') };

/**
 * The fields of the log's changes that hold another record's id, each with the choice list that names it, and a
 * label where the field's name does not read as one ("ft_id"): "Status Offer accepted → Enrolled", not
 * "Contract status 1 → 3" (decision 067). A credit note's document type (even) has the credit notes' list.
 */
const LOOKUPS: Record<string, { label: string; list: (value: unknown) => ChoiceListName }> = {
  contract_status_id: { label: 'Status', list: byValue('contract_status') },
  ft_id: { label: 'Type', list: byValue('file_types') },
  contract_id: { label: 'Contract', list: byValue('contracts') },
  student_id: { label: 'Student', list: byValue('students') },
  invoice_id: { label: 'Invoice', list: byValue('invoices') },
  linked_invoice_id: { label: 'Linked invoice', list: byValue('invoices') },
  document_type_id: { label: 'Document type', list: (v) => (Number(v) % 2 === 0 ? 'document_types_creditnotes' : 'document_types_invoices') },
  scholarship_payment_type_id: { label: 'Payment type', list: byValue('scholarship_payment_types') },
  program_id: { label: 'Program', list: byValue('programs') },
  scholarship_id: { label: 'Scholarship', list: byValue('scholarships') },
  university_id: universities,
  y1_university_id: { ...universities, label: 'University Y1' },
  y2_university_id: { ...universities, label: 'University Y2' },
  cntry_id: countries,
  citizenship1_cntry_id: { ...countries, label: 'Citizenship 1' },
  citizenship2_cntry_id: { ...countries, label: 'Citizenship 2' },
  payment_bank_cntry_id: { ...countries, label: 'Bank country' },
  payment_holder_cntry_id: { ...countries, label: 'Payment holder country' },
  usr_role_id: { label: 'Role', list: byValue('userroles') },
};

/** An id named as its choice list names it; the id itself while the list loads or when it is gone from it. */
function NamedId({ list, id }: { list: ChoiceListName; id: number }) {
  return isSearchedChoiceList(list) ? <SearchedName list={list} id={id} /> : <ListedName list={list} id={id} />;
}

function ListedName({ list, id }: { list: ChoiceListName; id: number }) {
  const { choices } = useChoices(list);
  return <>{choices.find((c) => Number(c.id) === id)?.name ?? String(id)}</>;
}

function SearchedName({ list, id }: { list: SearchedChoiceListName; id: number }) {
  const { choices } = useSearchedChoices(list, '', id);
  return <>{choices.find((c) => Number(c.id) === id)?.name ?? String(id)}</>;
}

/** A changed value as staff read it: named when it is another record's id, else as `shown` writes it. */
function ChangedValue({ field, value, shown }: { field: string; value: unknown; shown: (value: unknown) => string }) {
  const lookup = LOOKUPS[field];
  const id = Number(value);
  if (!lookup || value === null || value === undefined || value === '' || !Number.isInteger(id)) return <>{shown(value)}</>;
  return <NamedId list={lookup.list(value)} id={id} />;
}

/**
 * How a changed field of an event is named and its values shown (decision 052): by the column title and format
 * its resource declares (an amount as € 1.234,50), else in words, with dates as DD-MM-YYYY and yes/no for
 * true/false. The log keeps the field names and stored values; this is how staff read them.
 */
function describeField(resourceKey: string | null, field: string, own?: FieldDef): { label: string; shown: (value: unknown) => string } {
  const column = resources.find((r) => r.key === resourceKey)?.columns.find((c) => c.field === field);
  const shown = (value: unknown): string => {
    if (value === null || value === undefined || value === '') return '(empty)';
    // A value the column or the form names in words: a semester 0 is "Whole year", as the overview shows it.
    const named = column?.labels?.[String(value)] ?? own?.options?.find((o) => String(o.value) === String(value))?.label;
    if (named !== undefined) return named;
    if (column?.format && column.format !== 'text') return String(formatValue(value, column.format));
    if (typeof value === 'boolean') return formatBool(value);
    if (typeof value === 'string' && ISO_DATE.test(value)) return formatDate(value);
    if (typeof value === 'string' && ISO_TIME.test(value)) return formatDateTime(value);
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  return { label: column?.title ?? own?.label ?? LOOKUPS[field]?.label ?? humanized(field), shown };
}

function Changes({ changes, resourceKey, ownFields }: { changes: NonNullable<LogEvent['changes']>; resourceKey: string | null; ownFields?: ReadonlyMap<string, FieldDef> }) {
  return (
    <Table fz="xs" withRowBorders={false} verticalSpacing={0} horizontalSpacing="xs">
      <Table.Tbody>
        {Object.entries(changes).map(([field, change]) => {
          const { label, shown } = describeField(resourceKey, field, ownFields?.get(field));
          return (
            <Table.Tr key={field}>
              <Table.Td c="dimmed">{label}</Table.Td>
              <Table.Td>
                <ChangedValue field={field} value={change.old} shown={shown} />
              </Table.Td>
              <Table.Td aria-hidden>→</Table.Td>
              <Table.Td>
                <ChangedValue field={field} value={change.new} shown={shown} />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** The log's filter for a record's History: the events linked to it (a contract's documents' too), or its own. */
const historyParams = (resource: AnyResource, id: number | string) =>
  resource.historyLink ? { [resource.historyLink]: id } : { resource: resource.key, record_id: id };

/** What a History linked through the log's field holds besides the record's own events. */
const LINKED: Record<NonNullable<AnyResource['historyLink']>, string> = {
  contract_id: 'With the events of its invoices, payments, scholarship payments, documents and e-mails.',
  student_id: "With the events of the student's contracts and of everything about them.",
};

function Events({ resource, id, fields }: { resource: AnyResource; id: number | string; fields: readonly FieldDef[] }) {
  // The record's own fields named as its form names them ("Check university fee payment", not the column name),
  // and their values as its selects do.
  const ownFields = new Map(fields.map((f) => [f.name, f]));
  const params = { ...historyParams(resource, id), sort: 'le_time|desc', per_page: 50 };
  const query = useQuery({
    queryKey: queryKeys.list(logEventResource.key, params),
    queryFn: ({ signal }) => api.get<Paged<LogEvent>>(`/${logEventResource.apiPath}`, { query: params, signal }),
  });
  if (query.isLoading) return <Loader size="xs" aria-label="Loading the history" />;
  if (query.error) {
    return (
      <Alert color="red" variant="light" role="alert">
        {query.error.message}
      </Alert>
    );
  }
  const events = query.data?.data ?? [];
  if (events.length === 0) return <Text size="sm">No changes recorded.</Text>;
  const total = query.data?.links.pagination.total ?? events.length;
  return (
    <Stack gap="xs">
      {resource.historyLink && (
        <Text size="xs" c="dimmed">
          {LINKED[resource.historyLink]}
        </Text>
      )}
      <Table.ScrollContainer minWidth={560}>
        <Table fz="sm" striped aria-label="History" verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>User</Table.Th>
              <Table.Th>What</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>{formatDateTime(e.le_time)}</Table.Td>
                <Table.Td style={{ verticalAlign: 'top' }}>{e.usr_name ?? ''}</Table.Td>
                <Table.Td>
                  <Text size="sm">{e.le_message}</Text>
                  {e.changes && Object.keys(e.changes).length > 0 && (
                      <Changes changes={e.changes} resourceKey={e.resource} ownFields={e.resource === resource.key ? ownFields : undefined} />
                    )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total > events.length && <Text size="xs" c="dimmed">{`The latest ${events.length} of ${total} events; the Log Events overview has them all.`}</Text>}
    </Stack>
  );
}

/**
 * A record's History (issue 10): who changed what and when, from the event log, newest first. Loaded when
 * opened, as staff of Odoo or ERPNext expect of a money record. A contract's and a student's include the events
 * of what belongs to them (decision 047): an invoice's mail that failed shows on its contract.
 */
export function History({ resource, id, fields }: { resource: AnyResource; id: number | string; fields: readonly FieldDef[] }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Accordion variant="contained" value={open} onChange={setOpen}>
      <Accordion.Item value="history">
        <Accordion.Control>History</Accordion.Control>
        <Accordion.Panel>{open === 'history' && <Events resource={resource} id={id} fields={fields} />}</Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
