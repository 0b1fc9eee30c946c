import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { Alert, Button, Group, Loader, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { defaultView, referenceOf, viewsOf, type AnyResource, type ViewDescriptor } from '@app/contracts';
import { formatDateTime } from '../../lib/format';
import { RecordActions } from '../actions/record-actions';
import { Field } from '../fields/field';
import { History } from './history';
import { fieldFor, type FieldDef } from '../fields/types';
import { LeaveDialog } from './leave-guard';
import { detailFormId, useDetail, type DeriveValues, type Detail } from './use-detail';
import { ReasonTooltip } from '../../lib/reason-tooltip';

export interface DetailPageProps<D extends AnyResource> {
  descriptor: D;
  /** The view the record is shown in: its title and routes. The resource's default view otherwise. */
  view?: ViewDescriptor;
  fields: readonly FieldDef[];
  /** Defaults to the route's `:id`. */
  id?: string;
  /** Extra options of the resource (PDF, e-mail, status changes …), given the detail state. */
  extras?: (detail: Detail) => ReactNode;
  /** Read-only information and links of the record, drawn between the buttons and the form. */
  info?: (detail: Detail) => ReactNode;
  /** Wraps the form (tabs beside it, lists below it); by default the form is drawn alone. */
  layout?: (form: ReactNode, detail: Detail) => ReactNode;
  /** Fields set from another field's change (a contract's end date from its start date). */
  derive?: DeriveValues;
  /** A save refused until confirmed: the flag the server names with its 409 (see useDetail). */
  confirmFlag?: string;
  /**
   * The key of the view a record belongs in (a planned invoice in `planned`, once numbered in `numbered`), where
   * a resource has several. A record shown under another view's route, or moved to another view by an action
   * (Create PDF), is shown under its own: title, actions and Overview follow.
   */
  viewOf?: (record: Record<string, unknown>) => string | undefined;
}

interface FieldSection {
  title: string | undefined;
  fields: FieldDef[];
}

/**
 * Fields in sections by their `group`, in the order the sections first appear in the declaration: Comments,
 * declared last and in no group, stays last rather than above the record's own sections.
 */
function sectionsOf(fields: readonly FieldDef[]): FieldSection[] {
  const sections: FieldSection[] = [];
  for (const def of fields) {
    let section = sections.find((s) => s.title === def.group);
    if (!section) {
      section = { title: def.group, fields: [] };
      sections.push(section);
    }
    section.fields.push(def);
  }
  return sections;
}

/**
 * A new record is created by Save, not by Enter in one of its fields (decision 068). Enter ending a date
 * confirmed the date, and created the payment whose other fields its presets had filled: with a number, which
 * a delete does not give back. Enter still confirms what a field offers (a date, a select's option), and on a
 * button presses it; a record being edited is still saved by Enter.
 */
function createdBySaveOnly(e: KeyboardEvent<HTMLFormElement>) {
  if (e.key === 'Enter' && e.target instanceof HTMLInputElement) e.preventDefault();
}

/**
 * The one detail screen (spec §2 "Detail screens"): title, Edit / Undo Edit / Delete / Save / Overview, the
 * declared fields, and the delete confirmation. Keyed by view and id, so moving to another record starts afresh.
 */
export function DetailPage<D extends AnyResource>(props: DetailPageProps<D>) {
  const params = useParams();
  const id = props.id ?? params.id ?? 'new';
  // Keyed by view too: a record that moved to another view (numbered) starts afresh there, not with the form of
  // the view it left (decision 060).
  return <DetailView key={`${props.descriptor.key}:${props.view?.key ?? ''}:${id}`} {...props} id={id} />;
}

function DetailView<D extends AnyResource>({ descriptor, fields, id, extras, info, layout, derive, confirmFlag, viewOf, ...props }: DetailPageProps<D> & { id: string }) {
  const view = props.view ?? defaultView(descriptor);
  const location = useLocation();
  const title = view.titleSingular;
  const detail = useDetail(descriptor, id, fields, { derive, view, confirmFlag });
  const [confirmOpen, setConfirmOpen] = useState(false);
  const { mode, record } = detail;
  const formId = detailFormId(descriptor.key);
  const reference = record ? referenceOf(descriptor, record) : '';

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (detail.canSave) detail.save();
  };

  const confirmDelete = () => {
    setConfirmOpen(false);
    detail.remove();
  };

  if (mode === 'new' && !detail.canWrite) {
    return (
      <Alert color="red" variant="light" role="alert" title="Not allowed">
        You are not allowed to create a {title}.
      </Alert>
    );
  }

  const hasRecord = mode === 'new' || record !== undefined;

  // The record belongs in another view (numbered by Create PDF, or opened under the wrong route): shown there.
  // Unless the user has typed something: moved under them (someone else numbered it), the form stays with their
  // text, says where the record is now and goes there when asked, past the question about unsaved changes.
  const homeKey = record && viewOf?.(record);
  const home = homeKey && homeKey !== view.key && mode !== 'new' ? viewsOf(descriptor).find((v) => v.key === homeKey) : undefined;
  const homePath = home && `${home.routes.detail}/${encodeURIComponent(id)}${location.search}`;
  if (home && homePath && !detail.isDirty) return <Navigate to={homePath} replace />;

  const form = (
    <Paper withBorder p="md" radius="sm">
      <form id={formId} onSubmit={onSubmit} onKeyDown={mode === 'new' ? createdBySaveOnly : undefined} noValidate aria-label={title}>
        <Stack gap="lg">
          {sectionsOf(fields).map((section) => (
            <Stack key={section.title ?? ''} gap="xs" component="section" aria-label={section.title}>
              {section.title && (
                <Title order={2} size="h5" c="dimmed">
                  {section.title}
                </Title>
              )}
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
                {section.fields.map((declared) => {
                  const def = fieldFor(declared, record ?? {}, detail.values);
                  // A rule of this record keeps the field read-only: it says why.
                  const frozenBecause = mode === 'edit' ? detail.readOnlyReason(def.name) : undefined;
                  return (
                    <div key={def.name} style={def.span === 2 ? { gridColumn: '1 / -1' } : undefined}>
                      <Field
                        def={frozenBecause ? { ...def, description: frozenBecause } : def}
                        value={detail.values[def.name]}
                        onChange={(v) => detail.setValue(def.name, v)}
                        error={detail.fieldError(def.name)}
                        required={detail.required.has(def.name)}
                        readOnly={detail.isReadOnly(def)}
                      />
                    </div>
                  );
                })}
              </SimpleGrid>
            </Stack>
          ))}
        </Stack>
        {detail.formErrors.length > 0 && (
          <Stack gap={2} mt="sm">
            {detail.formErrors.map((message) => (
              <Text key={message} size="sm" c="red">
                {message}
              </Text>
            ))}
          </Stack>
        )}
      </form>
      {record && typeof record.edit_timestamp === 'string' && (
        <Text size="xs" c="dimmed" mt="sm">
          Last edit {formatDateTime(record.edit_timestamp)}
        </Text>
      )}
    </Paper>
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h3">
          {mode === 'new' ? `New ${title}` : title}
          {reference && (
            <Text span inherit c="dimmed" ml="xs">
              {reference}
            </Text>
          )}
        </Title>
        <Group gap="xs">
          <RecordActions detail={detail} view={view} />
          {extras?.(detail)}
          {mode === 'read' && detail.canWrite && record && (
            <ReasonTooltip reason={detail.lockedBy}>
              <Button variant="default" onClick={detail.startEdit} disabled={detail.lockedBy !== null} aria-description={detail.lockedBy ?? undefined}>
                Edit
              </Button>
            </ReasonTooltip>
          )}
          {mode === 'edit' && (
            <Button variant="default" onClick={detail.undoEdit} disabled={detail.saving}>
              Undo Edit
            </Button>
          )}
          {mode !== 'new' && detail.canDelete && record && (
            <ReasonTooltip reason={detail.deleteBlockedBy}>
              <Button
                color="red"
                variant="light"
                onClick={() => setConfirmOpen(true)}
                loading={detail.deleting}
                disabled={detail.deleteBlockedBy !== null}
                aria-description={detail.deleteBlockedBy ?? undefined}
              >
                Delete
              </Button>
            </ReasonTooltip>
          )}
          {(mode === 'edit' || mode === 'new') && (
            <ReasonTooltip reason={detail.saveBlockedBy}>
              <Button type="submit" form={formId} disabled={!detail.canSave} loading={detail.saving} aria-description={detail.saveBlockedBy ?? undefined}>
                Save
              </Button>
            </ReasonTooltip>
          )}
          <Button variant="default" onClick={detail.goToOverview}>
            Overview
          </Button>
        </Group>
      </Group>

      {detail.saveBlockedFields.length > 0 && (mode === 'new' || detail.isDirty) && (
        // Said where it is seen: the field with the problem may be below the fold while Save, up here, is grey.
        // Each field says what is wrong with it; Save's description says all of it.
        <Text size="sm" c="dimmed" aria-hidden>
          {`Not saved yet: check ${detail.saveBlockedFields.join(', ')}.`}
        </Text>
      )}

      {detail.loadError && (
        <Alert color="red" variant="light" role="alert" title={`Error loading ${title}`}>
          {detail.loadError.message}
        </Alert>
      )}

      {home && homePath && (
        <Alert color="yellow" variant="light" role="status" title={`This ${title} is now a ${home.titleSingular}`}>
          <Group justify="space-between" gap="sm">
            <Text size="sm">Someone else changed it while you were editing: your changes are not saved. Copy what you need before you open it.</Text>
            <Button component={Link} to={homePath} variant="default" size="compact-sm">
              {`Open the ${home.titleSingular}`}
            </Button>
          </Group>
        </Alert>
      )}

      {detail.newerVersion && !home && (
        <Alert color="yellow" variant="light" role="status" title={`This ${title} was changed by someone else`}>
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              {detail.newerVersion.changedFields.length > 0
                ? `Since you opened it: ${detail.newerVersion.changedFields.map((name) => fields.find((f) => f.name === name)?.label ?? name).join(', ')}. `
                : ''}
              Reload it to see their changes; yours are kept over them.
            </Text>
            <Button variant="default" size="compact-sm" onClick={detail.newerVersion.reloadKeepingChanges}>
              Reload and keep my changes
            </Button>
          </Group>
        </Alert>
      )}

      {detail.isLoading && <Loader size="sm" aria-label={`Loading ${title}`} />}

      {hasRecord && info?.(detail)}

      {hasRecord && (layout ? layout(form, detail) : form)}

      {mode !== 'new' && record && <History resource={descriptor} id={record.id as number | string} fields={fields} />}

      <Modal
        opened={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        title={`Delete ${title}`}
        withCloseButton={false}
        centered
        size="sm"
      >
        <Text size="sm">{`Are you sure you want to delete this ${title}?`}</Text>
        <Group justify="flex-end" mt="md" gap="xs">
          <Button variant="default" onClick={() => setConfirmOpen(false)} data-autofocus>
            No
          </Button>
          <Button color="red" onClick={confirmDelete}>
            Yes
          </Button>
        </Group>
      </Modal>
      <Modal opened={detail.confirmation !== null} onClose={() => detail.confirmation?.cancel()} title={`Save ${title}?`} withCloseButton={false} centered size="md">
        <Text size="sm">{detail.confirmation?.message}</Text>
        <Group justify="flex-end" mt="md" gap="xs">
          <Button variant="default" onClick={() => detail.confirmation?.cancel()} data-autofocus>
            No
          </Button>
          <Button onClick={() => detail.confirmation?.accept()}>Yes</Button>
        </Group>
      </Modal>
      <LeaveDialog blocker={detail.leaveBlocker} title={title} />
    </Stack>
  );
}
