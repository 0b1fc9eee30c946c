import type { CSSProperties, KeyboardEvent, MouseEvent, ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  ActionIcon,
  Alert,
  Anchor,
  Box,
  Button,
  Checkbox,
  CloseButton,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { defaultView, rangeText, referenceOf, type AnyResource, type SortKey, type ViewDescriptor } from '@app/contracts';
import { useAuth } from '../../lib/auth';
import { alignOf, formatValue, keepsTogether } from '../../lib/format';
import { ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon, PencilIcon, PlusIcon, SearchIcon } from '../../lib/icons';
import { HEADER_HEIGHT, usePhone } from '../../lib/layout';
import { BatchMenu } from '../batch/batch-menu';
import { fieldFor, type FieldDef } from '../fields/types';
import { AdvancedFilterCard } from './advanced-filters';
import { ListActions } from './list-actions';
import { columnsOf, sortKeyOf, type AnyRow, type Cells, type Column, type RowOf } from './types';
import { useOverview, type Overview } from './use-overview';

export interface OverviewPageProps<D extends AnyResource> {
  descriptor: D;
  /**
   * The view shown (title, columns, default sort, fixed filter, actions): several views share a resource and
   * each remembers its own state. The resource's default view otherwise.
   */
  view?: ViewDescriptor;
  /** Cells drawn as more than their formatted value (links to other records). */
  cells?: Cells<RowOf<D>>;
  /** The resource's detail fields: Bulk Edit asks its fields with them. */
  fields?: readonly FieldDef[];
  /** More of the extra-options area (besides the declared list actions and the Batch menu). */
  extras?: (overview: Overview<D>) => ReactNode;
  /** The list actions (exports) in a cog menu rather than as buttons (the invoice overviews, spec §2). */
  listActionsInMenu?: boolean;
  /** The advanced filter fields (`<resource>.filters.tsx`); without them there is no Advanced checkbox. */
  filters?: readonly FieldDef[];
  /** Buttons of a row beside Edit (e.g. a new payment for a numbered invoice). */
  rowActions?: (row: RowOf<D> & AnyRow) => ReactNode;
  /** The detail route of a row; defaults to `{routes.detail}/{id}`. Null: rows open nothing (log events). */
  detailPath?: ((row: RowOf<D> & AnyRow) => string) | null;
  /** Where New goes; defaults to `{routes.detail}/new`. Null hides New (log events cannot be created). */
  newPath?: string | null;
}

/** From this many characters a text cell is held to a readable width (LongText). */
const LONG_TEXT = 50;

/**
 * A value this short stays on one line ("Offer accepted", a name; also when its cell draws it as a link): a table
 * short of width wrapped such words first, and rows of uneven height were harder to read across than a few more
 * columns to scroll to.
 */
const isShortText = (content: ReactNode) => typeof content === 'string' && content.length <= 40;

/**
 * A long text in a cell (a comment, a description, an address pasted whole): at most three lines of a readable
 * width, broken inside a word when it has no spaces (a long e-mail address or link), so one row cannot push the
 * other columns out of sight. The whole text shows on hover and on the detail screen.
 */
function LongText({ text }: { text: string }) {
  return (
    <Text component="div" fz="inherit" lineClamp={3} title={text} style={{ maxWidth: `${LONG_TEXT}ch`, minWidth: '12ch', overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}

function SortIndicator({ sortKey, sort }: { sortKey: SortKey | undefined; sort: readonly SortKey[] }) {
  if (!sortKey) return null;
  const arrow = sortKey.direction === 'asc' ? '▲' : '▼';
  const position = sort.length > 1 ? sort.indexOf(sortKey) + 1 : '';
  return (
    <Text span size="xs" c="blue" ml={4} aria-hidden="true" data-sort-indicator="">
      {arrow}
      {position}
    </Text>
  );
}

interface HeaderCellProps<Row> {
  column: Column<Row>;
  sortable: readonly string[];
  sort: readonly SortKey[];
  onSort: (field: string, additive: boolean) => void;
}

function HeaderCell<Row>({ column, sortable, sort, onSort }: HeaderCellProps<Row>) {
  const key = sortKeyOf(column, sortable);
  const align = alignOf(column.format);
  if (!key) {
    return (
      <Table.Th ta={align} w={column.width}>
        {column.title}
      </Table.Th>
    );
  }
  const current = sort.find((k) => k.field === key);
  const ariaSort = current ? (current.direction === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <Table.Th ta={align} w={column.width} aria-sort={ariaSort}>
      <UnstyledButton
        onClick={(e: MouseEvent) => onSort(key, e.shiftKey)}
        title="Click to sort by this column; Shift-click to add it to the sort"
        fz="sm"
        fw={600}
        // Shift-click would otherwise select the header text. The whole cell is the button: a click beside a short
        // title in a wide column sorts too.
        style={{ whiteSpace: 'nowrap', userSelect: 'none', width: '100%', textAlign: align }}
      >
        {column.title}
        <SortIndicator sortKey={current} sort={sort} />
      </UnstyledButton>
    </Table.Th>
  );
}

/**
 * The one overview screen (spec §2 "Overview screens"): title, range text and pager, quick filter, New, an
 * extra-options area, the table with selection and edit buttons, `No Data Available` and load errors.
 */
export function OverviewPage<D extends AnyResource>(props: OverviewPageProps<D>) {
  // Keyed by overview and the filters a link carries: moving from one to another must not carry the state over.
  const [searchParams] = useSearchParams();
  return <OverviewView key={`${overviewIdOf(props.descriptor, props.view)}?${searchParams.toString()}`} {...props} />;
}

/** The id an overview's state is remembered under: the resource key, and the view's for a second view. */
export function overviewIdOf(descriptor: AnyResource, view: ViewDescriptor | undefined): string {
  return !view || view.key === descriptor.key ? descriptor.key : `${descriptor.key}:${view.key}`;
}

function OverviewView<D extends AnyResource>(props: OverviewPageProps<D>) {
  const { descriptor } = props;
  const view = props.view ?? defaultView(descriptor);
  const columns = columnsOf(descriptor, view, props.cells);
  const [searchParams] = useSearchParams();
  const overview = useOverview(descriptor, overviewIdOf(descriptor, view), {
    fixedFilters: view.fixedFilter,
    defaultSort: view.defaultSort,
    linkedFilters: linkedFiltersOf(descriptor, view, searchParams),
  });
  const navigate = useNavigate();
  const { hasLevel } = useAuth();
  // On a phone the row buttons (Edit, New Payment) held in sight would take half the width from the data: they
  // scroll with the row there, and only the selection column stays (decision 067).
  const phone = usePhone();
  const rowButtonsAt = (band: 'head' | 'striped' | 'plain') => (phone ? undefined : stickyAt('right', band));
  const title = view.title;
  const detailPath =
    props.detailPath === undefined ? (row: AnyRow) => `${view.routes.detail}/${row.id}` : props.detailPath;
  // Nobody creates or edits a read-only resource (the event log), whatever the role.
  const canWrite = hasLevel(descriptor.access.write) && !descriptor.readOnly;
  const canEditRows = canWrite && detailPath !== null;
  const newPath = props.newPath === undefined ? `${view.routes.detail}/new` : props.newPath;
  // A filter whose choices depend on the view (a credit note's document types) gets the view's list.
  const filterFields = (props.filters ?? []).map((def) => fieldFor(def, view.fixedFilter ?? {}));
  const { rows, pagination, selection } = overview;
  const columnCount = columns.length + 1 + (canEditRows || props.rowActions ? 1 : 0);

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      overview.submitSearch();
    }
  };

  const stop = (e: MouseEvent) => e.stopPropagation();

  return (
    <Stack gap="sm">
      {/* On a phone a long title and the pager do not fit side by side: the pager goes below the title, whole. */}
      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <Title order={1} size="h3">
            {title}
          </Title>
        </Group>
        <Group gap={6} wrap="nowrap">
          {overview.isFetching && <Loader size="xs" aria-label="Loading" />}
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="range-text">
            {pagination ? rangeText(pagination) : ''}
          </Text>
          {pagination?.estimated && (
            <Button variant="subtle" size="compact-xs" onClick={overview.countExactly} title="The total is an estimate: count the rows exactly">
              Count
            </Button>
          )}
          {/* Far into a list (the page is remembered for the session), page 1 is one click away, not a click per page. */}
          {overview.page > 2 && (
            <ActionIcon variant="default" aria-label="First page" title="First page" onClick={() => overview.setPage(1)}>
              <ChevronsLeftIcon />
            </ActionIcon>
          )}
          <ActionIcon
            variant="default"
            aria-label="Previous page"
            disabled={!overview.hasPrevious}
            onClick={overview.previousPage}
          >
            <ChevronLeftIcon />
          </ActionIcon>
          <ActionIcon variant="default" aria-label="Next page" disabled={!overview.hasNext} onClick={overview.nextPage}>
            <ChevronRightIcon />
          </ActionIcon>
        </Group>
      </Group>

      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <TextInput
            aria-label="Quick filter"
            placeholder="Quick filter"
            size="sm"
            w={260}
            value={overview.searchInput}
            onChange={(e) => overview.setSearchInput(e.currentTarget.value)}
            onKeyDown={onSearchKey}
            leftSection={<SearchIcon />}
            rightSection={
              overview.searchInput !== '' ? (
                <CloseButton size="sm" aria-label="Clear filter" onClick={overview.clearSearch} />
              ) : null
            }
          />
          {filterFields.length > 0 && (
            <Checkbox
              label="Advanced"
              size="sm"
              checked={overview.advanced}
              onChange={(e) => overview.setAdvanced(e.currentTarget.checked)}
            />
          )}
          {selection.count > 0 && (
            <Group gap={4}>
              <Text size="sm" c="dimmed">
                {selection.count} selected
              </Text>
              <Button variant="subtle" size="compact-sm" onClick={overview.clearSelection}>
                Clear selection
              </Button>
            </Group>
          )}
        </Group>
        <Group gap="sm">
          {props.extras?.(overview)}
          <ListActions overview={overview} view={view} inMenu={props.listActionsInMenu} />
          <BatchMenu overview={overview} view={view} fields={props.fields ?? []} />
          {canWrite && newPath !== null && (
            <Button size="sm" leftSection={<PlusIcon />} onClick={() => navigate(newPath)}>
              New
            </Button>
          )}
        </Group>
      </Group>

      {filterFields.length > 0 && overview.advanced && <AdvancedFilterCard fields={filterFields} overview={overview} />}

      {overview.error && (
        <Alert color="red" variant="light" title={`Error loading ${title}`} role="alert">
          <Group justify="space-between" gap="sm" wrap="nowrap">
            <Text size="sm">{overview.error.message}</Text>
            <Button variant="default" size="compact-sm" onClick={() => void overview.refetch()} loading={overview.isFetching}>
              Retry
            </Button>
          </Group>
        </Alert>
      )}

      {/*
        A wide view (numbered invoices: 16 columns) scrolls sideways in here, never the page: the selection and the
        row buttons (Edit, New Payment) stay in sight at either end. At most a screen high, so the header row
        sticks to its top while the rows scroll.
      */}
      <Box data-testid="overview-scroll" className="sticky-columns" style={{ overflow: 'auto', maxHeight: `calc(100dvh - ${HEADER_HEIGHT}px - var(--mantine-spacing-md))` }}>
      <Table
          striped
          highlightOnHover
          stickyHeader
          stickyHeaderOffset={0}
          verticalSpacing={4}
          horizontalSpacing="xs"
          fz="sm"
          aria-label={title}
          aria-busy={overview.isFetching}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={36} style={stickyAt('left', 'head')}>
                <Checkbox
                  size="xs"
                  aria-label="Select all rows on this page"
                  checked={selection.allOnPage}
                  indeterminate={selection.someOnPage}
                  onChange={overview.toggleAllOnPage}
                  disabled={rows.length === 0}
                />
              </Table.Th>
              {columns.map((c) => (
                <HeaderCell
                  key={c.field}
                  column={c}
                  sortable={descriptor.sortable}
                  sort={overview.sort}
                  onSort={overview.toggleSort}
                />
              ))}
              {columnCount > columns.length + 1 && (
                <Table.Th w={48} style={rowButtonsAt('head')}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {/* A list that failed to load is not known to be empty: the error says what happened instead. */}
            {rows.length === 0 && !overview.isLoading && !overview.error && (
              <Table.Tr>
                <Table.Td colSpan={columnCount}>
                  <Text ta="center" c="dimmed" py="md">
                    No Data Available
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((row, index) => {
              // Mantine stripes the odd rows (1st, 3rd …); a sticky cell paints its row's colour over what scrolls under it.
              const band = index % 2 === 0 ? 'striped' : 'plain';
              const path = detailPath ? detailPath(row) : null;
              const reference = referenceOf(descriptor, row);
              return (
                <Table.Tr
                  key={row.id}
                  style={path ? { cursor: 'pointer' } : undefined}
                  onClick={path ? () => navigate(path) : undefined}
                >
                  <Table.Td onClick={stop} style={stickyAt('left', band)}>
                    <Checkbox
                      size="xs"
                      aria-label={`Select ${reference}`}
                      checked={selection.isSelected(row.id)}
                      onChange={() => overview.toggleSelected(row.id)}
                    />
                  </Table.Td>
                  {columns.map((c, i) => {
                    const value = c.labels?.[String(row[c.field])] ?? formatValue(row[c.field], c.format);
                    const content = c.render ? c.render(row) : value;
                    const oneLine = c.nowrap || keepsTogether(c.format);
                    return (
                      <Table.Td key={c.field} ta={alignOf(c.format)} style={oneLine || isShortText(value) ? { whiteSpace: 'nowrap' } : undefined}>
                        {i === 0 && !c.render && path ? (
                          <Anchor component={Link} to={path} size="sm" onClick={stop}>
                            {content === '' ? reference : content}
                          </Anchor>
                        ) : !oneLine && typeof content === 'string' && content.length > LONG_TEXT ? (
                          <LongText text={content} />
                        ) : (
                          content
                        )}
                      </Table.Td>
                    );
                  })}
                  {columnCount > columns.length + 1 && (
                    <Table.Td onClick={stop} style={rowButtonsAt(band)}>
                      <Group gap={4} wrap="nowrap">
                        {canEditRows && path && (
                          <ActionIcon
                            variant="subtle"
                            size="sm"
                            aria-label="Edit"
                            title={`Edit ${reference}`}
                            onClick={() => navigate(`${path}?mode=edit`)}
                          >
                            <PencilIcon size={14} />
                          </ActionIcon>
                        )}
                        {props.rowActions?.(row)}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
      </Table>
      </Box>
    </Stack>
  );
}

/**
 * A cell of the selection column (left) or of the row buttons (right) that stays in sight while the table scrolls
 * sideways, over the cells that pass under it (the header's above the rows').
 */
function stickyAt(side: 'left' | 'right', band: 'head' | 'striped' | 'plain'): CSSProperties {
  const background = band === 'striped' ? 'var(--table-striped-color)' : 'var(--mantine-color-body)';
  return {
    position: 'sticky',
    [side]: 0,
    zIndex: band === 'head' ? 4 : 1,
    backgroundColor: background,
    boxShadow: `inset ${side === 'left' ? '-1px' : '1px'} 0 0 var(--table-border-color)`,
  };
}

/** The advanced filters a link carries in its query (`?contract_id=12&intake=2024`): declared filter fields only. */
export function linkedFiltersOf(descriptor: AnyResource, view: ViewDescriptor, query: URLSearchParams): Record<string, unknown> {
  const fields = Object.keys(descriptor.filterSchema.shape);
  const linked: Record<string, unknown> = {};
  for (const [key, value] of query.entries()) {
    if (!fields.includes(key) || view.fixedFilter?.[key] !== undefined || value === '') continue;
    linked[key] = /^\d+$/.test(value) ? Number(value) : value;
  }
  return linked;
}
