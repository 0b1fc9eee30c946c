import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from '@mantine/form';
import { defaultView, readOnlyFieldsOf, whyLockedFor, whyNotDeletable, type AnyResource, type ViewDescriptor } from '@app/contracts';
import { api, ApiError } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { queryKeys, refreshAfterWrite } from '../../lib/query-keys';
import { useRequestKey } from '../../lib/request-key';
import { fieldSchema, isRequiredSchema, requiredByRules } from '../fields/required';
import { emptiedByNarrowing, type FieldDef } from '../fields/types';
import { kindError, schemaDefault, toFormValue, toWireValue } from '../fields/values';
import { useLeaveGuard } from './leave-guard';

/** The id of a resource's detail form (its Save button sits outside it and names it). */
export const detailFormId = (resourceKey: string) => `detail-form-${resourceKey}`;

export type DetailMode = 'read' | 'edit' | 'new';

type Row = Record<string, unknown> & { id: number | string; edit_timestamp?: string | null };
type Values = Record<string, unknown>;

export function isFieldReadOnly(def: FieldDef, mode: DetailMode): boolean {
  if (mode === 'read') return true;
  if (def.readOnly === 'afterCreate') return mode !== 'new';
  return def.readOnly === true;
}

function sameWire(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function formValues(
  fields: readonly FieldDef[],
  record: Row | undefined,
  presets: URLSearchParams | undefined,
  createSchema: AnyResource['createSchema'],
): Values {
  const values: Values = {};
  for (const def of fields) {
    if (record) values[def.name] = toFormValue(def, record[def.name]);
    else if (presets?.has(def.name)) values[def.name] = toFormValue(def, presets.get(def.name));
    else values[def.name] = toFormValue(def, def.defaultValue ?? schemaDefault(fieldSchema(createSchema, def.name)));
  }
  return values;
}

interface Checked {
  /** The first message of each editable field that fails. */
  errors: Record<string, string>;
  /** Messages of the whole record that belong to no field drawn (new records only). */
  formErrors: string[];
  /** The editable fields' values as the schema makes them (codes in capitals …): what an update sends. */
  parsed: Values;
  /** The whole record as the create schema makes it (its defaults included): what a create sends. */
  createBody: Values | undefined;
  /**
   * Fields whose message is a rule across fields (a refinement of the whole record): the change that broke it
   * may be another field's (a university fee chosen as payment type), so it is shown once the user changed anything.
   */
  byRule: Set<string>;
  /** Editable fields a rule across fields requires with these values (a university fee's linked invoice). */
  requiredByRules: string[];
  valid: boolean;
}

/**
 * Validates form values with the descriptor's create schema: per editable field (the kind's own complaint about
 * a mistyped value first), then the whole record for the rules across fields (zod refinements in the contract).
 */
/** "Payment Date: Payment date is required; IBAN: …": the fields a save waits for, by label, at most four. */
function saveBlockers(editable: readonly FieldDef[], validation: Pick<Checked, 'errors' | 'formErrors'>): string {
  const named = editable.filter((def) => validation.errors[def.name]).map((def) => `${def.label}: ${validation.errors[def.name]!}`);
  const all = [...named, ...validation.formErrors];
  const shown = all.slice(0, 4).join('; ');
  return `Not saved yet. ${shown}${all.length > 4 ? `; and ${all.length - 4} more` : ''}`;
}

function checkValues(
  values: Values,
  fields: readonly FieldDef[],
  editable: readonly FieldDef[],
  createSchema: AnyResource['createSchema'],
  mode: DetailMode,
): Checked {
  const errors: Record<string, string> = {};
  const parsed: Values = {};
  const wire: Values = {};
  for (const def of fields) {
    if (fieldSchema(createSchema, def.name)) wire[def.name] = toWireValue(def, values[def.name]);
  }
  for (const def of editable) {
    const typo = kindError(def, values[def.name]);
    if (typo) {
      errors[def.name] = typo;
      continue;
    }
    const result = fieldSchema(createSchema, def.name)!.safeParse(wire[def.name]);
    if (result.success) parsed[def.name] = result.data;
    else errors[def.name] = result.error.issues[0]?.message ?? 'Invalid value';
  }
  const whole = createSchema.safeParse(wire);
  const formErrors: string[] = [];
  const byRule = new Set<string>();
  if (!whole.success) {
    for (const issue of whole.error.issues) {
      const name = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
      const isEditable = name !== undefined && editable.some((f) => f.name === name);
      if (isEditable && !errors[name]) {
        errors[name] = issue.message;
        byRule.add(name);
      } else if (!name && mode === 'new') formErrors.push(issue.message);
      else if (name && !fields.some((f) => f.name === name) && mode === 'new') formErrors.push(`${name}: ${issue.message}`);
    }
  }
  return {
    errors,
    formErrors,
    parsed,
    createBody: whole.success ? (whole.data as Values) : undefined,
    byRule,
    requiredByRules: requiredByRules(createSchema, wire, editable.map((f) => f.name)),
    valid: Object.keys(errors).length === 0 && formErrors.length === 0,
  };
}

/**
 * Form values that follow from a change (a contract's end date from its start date): given the changed field,
 * its new form value and all form values, the other fields to set (form values too), or nothing.
 */
export type DeriveValues = (name: string, value: unknown, values: Readonly<Values>) => Values | undefined;

export interface DetailOptions {
  derive?: DeriveValues | undefined;
  /** The view the screen shows the record in (its routes); the resource's default view otherwise. */
  view?: ViewDescriptor | undefined;
  /**
   * A save the server refuses with a 409 naming this flag among its errors (an invoice payment's
   * `allow_overpayment`) is asked again in a confirm dialog with the server's message; Yes sends it again with
   * the flag true.
   */
  confirmFlag?: string | undefined;
}

/**
 * One record's screen state (spec §4 "Detail modes"): read-only by default, edit with `?mode=edit`, new when the
 * id is `new`. Validates with the descriptor's create schema, sends only the changed fields plus id (with
 * If-Match) on update and everything on create, deletes, reports failures and refreshes the overviews.
 *
 * The form state is a Mantine form: its values, which fields the user touched, its initial values (the record
 * the user started from, for the diff) and the server's field errors of a failed save.
 */
export function useDetail<D extends AnyResource>(descriptor: D, id: string, fields: readonly FieldDef[], options: DetailOptions = {}) {
  const { derive, confirmFlag } = options;
  /** The server's question of a save refused until confirmed (confirmFlag), while it is asked. */
  const [question, setQuestion] = useState<string | null>(null);
  /**
   * A save refused (409) because someone else saved the record since it was read: the record as it is now and
   * the fields they changed, offered to reload under the user's own changes.
   */
  const [newer, setNewer] = useState<{ row: Row; theirs: string[] } | null>(null);
  const routes = (options.view ?? defaultView(descriptor)).routes;
  const isNew = id === 'new';
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const { hasLevel, user } = useAuth();
  // A read-only resource (the event log, the outbox) is edited by nobody, whatever the role.
  const canWrite = hasLevel(descriptor.access.write) && !descriptor.readOnly;
  const canDelete = canWrite && descriptor.deletable;
  const mode: DetailMode = isNew ? 'new' : searchParams.get('mode') === 'edit' && canWrite ? 'edit' : 'read';
  const detailKey = queryKeys.detail(descriptor.key, id);

  const query = useQuery({
    queryKey: detailKey,
    queryFn: ({ signal }) => api.get<Row>(`/${descriptor.apiPath}/${encodeURIComponent(id)}`, { signal }),
    enabled: !isNew,
  });
  const record = isNew ? undefined : query.data;

  const initial = useMemo(
    () => formValues(fields, record, isNew ? searchParams : undefined, descriptor.createSchema),
    [fields, record, isNew, searchParams, descriptor.createSchema],
  );

  // A change marks its field touched and drops the server's message of that field (Mantine's defaults).
  const form = useForm<Values>({ mode: 'controlled', initialValues: initial });
  const { setInitialValues, reset } = form;
  /** Whether the user changed anything since the form last showed the record. */
  const changing = form.isTouched();
  /** The record the form started from: an update's id and If-Match refer to it, not to a later refetch. */
  const base = useRef<Row | undefined>(record);

  // Until the user changes something the form follows the record (loaded, refetched, answered by a save or a
  // status action); from then on it keeps the user's values and the record they started from. Undo Edit and a
  // save reset the form, so it follows the record again. Before paint: no frame shows the values of before.
  useLayoutEffect(() => {
    if (changing) return;
    base.current = record;
    setInitialValues(initial);
    reset();
  }, [changing, initial, record, setInitialValues, reset]);

  const values = form.values;

  const requiredByOwnSchema = useMemo(
    () => fields.filter((f) => isRequiredSchema(fieldSchema(descriptor.createSchema, f.name))).map((f) => f.name),
    [fields, descriptor.createSchema],
  );

  /** Fields this record keeps read-only (its rules, e.g. a locked invoice), with the reason. */
  const frozen = useMemo(() => (record ? readOnlyFieldsOf(descriptor, record) : {}), [descriptor, record]);
  const isReadOnly = useCallback(
    (def: FieldDef) => isFieldReadOnly(def, mode) || (mode === 'edit' && frozen[def.name] !== undefined),
    [mode, frozen],
  );

  /** Declared fields the user may change in this mode and the create schema knows: only these are sent. */
  const editable = useMemo(
    () =>
      fields.filter((f) => !isFieldReadOnly(f, mode === 'read' ? 'edit' : mode) && frozen[f.name] === undefined && fieldSchema(descriptor.createSchema, f.name)),
    [fields, mode, frozen, descriptor.createSchema],
  );

  // Worked out from all values on every change rather than stored per field: a field's message may depend on
  // another field (a refinement across fields), and Save needs the verdict on every field, touched or not.
  const validation = useMemo(
    () => checkValues(values, fields, editable, descriptor.createSchema, mode),
    [values, fields, editable, descriptor.createSchema, mode],
  );
  const required = useMemo(() => new Set([...requiredByOwnSchema, ...validation.requiredByRules]), [requiredByOwnSchema, validation.requiredByRules]);

  /** The fields whose value, as it would be sent, differs from the record the user started from. */
  const initialValues = form.getInitialValues();
  const typedFields =
    mode === 'edit'
      ? fields
          .filter((def) => !isFieldReadOnly(def, mode) && form.isDirty(def.name))
          // Another way of typing the same value (an IBAN without its spaces) is no change.
          .filter((def) => !sameWire(toWireValue(def, values[def.name]), toWireValue(def, initialValues[def.name])))
          .map((def) => def.name)
      : [];
  /**
   * The typed fields a save sends. A field the record has frozen since the user began (someone else numbered
   * the invoice) is not sent, but its text still counts as unsaved input (typedFields): nothing is dropped unasked.
   */
  const changedFields = typedFields.filter((name) => editable.some((def) => def.name === name));
  /** Why a save would drop typed text: the fields the record froze after the user changed them, with the rule. */
  const frozenTyped = typedFields.filter((name) => frozen[name] !== undefined);
  const frozenBlocker =
    frozenTyped.length > 0
      ? `Not saved: ${frozenTyped.map((name) => `${fields.find((f) => f.name === name)?.label ?? name} can no longer be changed (${frozen[name]!})`).join('; ')}.`
      : null;

  const setValue = (name: string, value: unknown) => {
    const before = form.getValues();
    const changes: Values = { [name]: value, ...derive?.(name, value, { ...before, [name]: value }) };
    // A select the change narrows otherwise (the invoices of another contract) lets go of the value it held.
    const changeable = fields.filter((def) => !isReadOnly(def));
    for (const def of emptiedByNarrowing(changeable, before, { ...before, ...changes })) changes[def.name] = toFormValue(def, null);
    for (const [changed, next] of Object.entries(changes)) form.setFieldValue(changed, next);
  };

  /** Shows a record the server answered to an action (a status change) as the current one. */
  const setRecord = useCallback((row: Row) => queryClient.setQueryData(detailKey, row), [queryClient, detailKey]);

  const leaveEditMode = useCallback(() => {
    setSearchParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('mode');
        return next;
      },
      { replace: true },
    );
  }, [setSearchParams]);

  const startEdit = useCallback(() => {
    reset();
    setSearchParams((p) => {
      const next = new URLSearchParams(p);
      next.set('mode', 'edit');
      return next;
    });
  }, [reset, setSearchParams]);

  const undoEdit = useCallback(() => {
    setNewer(null);
    reset();
    leaveEditMode();
  }, [reset, leaveEditMode]);

  /**
   * After a refused update: reads the record again; when its version moved (someone else saved it), says which
   * fields they changed and offers to reload it under the user's changes. Another 409 (a rule) changes nothing.
   */
  const checkNewer = async () => {
    const from = base.current;
    const { data: now } = await query.refetch();
    if (!from || !now || now.edit_timestamp === from.edit_timestamp) return;
    const theirs = fields.filter((def) => !sameWire(toWireValue(def, toFormValue(def, now[def.name])), toWireValue(def, toFormValue(def, from[def.name])))).map((def) => def.name);
    setNewer({ row: now, theirs });
  };

  /** The record as it is now, with the user's changes over it: the next save sends them against its version. */
  const reloadKeepingChanges = () => {
    if (!newer) return;
    const mine = Object.fromEntries(changedFields.map((name) => [name, values[name]]));
    const fresh = formValues(fields, newer.row, undefined, descriptor.createSchema);
    base.current = newer.row;
    setInitialValues(fresh);
    form.setValues({ ...fresh, ...mine });
    setNewer(null);
  };

  const invalidateLists = useCallback(() => refreshAfterWrite(queryClient, descriptor.key), [queryClient, descriptor.key]);

  // Saving a new record again after a lost answer creates it once (decision 050).
  const requestKey = useRequestKey();
  const saveMutation = useMutation({
    mutationFn: async (flags: Values): Promise<{ created?: number | string; row?: Row }> => {
      if (mode === 'new') {
        const body = { ...(validation.createBody ?? validation.parsed), ...flags };
        const { id: created } = await api.post<{ id: number | string }>(`/${descriptor.apiPath}`, body, { headers: requestKey.headers() });
        return { created };
      }
      const from = base.current;
      if (!from) throw new Error('No record to update');
      if (changedFields.length === 0) return {};
      const body: Values = { id: from.id };
      for (const name of changedFields) body[name] = validation.parsed[name];
      Object.assign(body, flags);
      const headers: Record<string, string> = {};
      if (typeof from.edit_timestamp === 'string') headers['If-Match'] = from.edit_timestamp;
      const row = await api.put<Row>(`/${descriptor.apiPath}/${encodeURIComponent(String(from.id))}`, body, { headers });
      return { row };
    },
    onSuccess: async ({ created, row }) => {
      if (created !== undefined) {
        requestKey.done();
        alerts.showSuccess('Saved');
        leaveGuard.release();
        navigate(`${routes.detail}/${created}`, { replace: true });
      } else {
        setNewer(null);
        if (row) {
          queryClient.setQueryData(detailKey, row);
          alerts.showSuccess('Saved');
        }
        reset();
        leaveEditMode();
      }
      await invalidateLists();
    },
    onError: (error) => {
      if (confirmFlag && error instanceof ApiError && error.isConflict && error.errors[confirmFlag]) {
        setQuestion(error.message);
        return;
      }
      if (error instanceof ApiError && error.isValidation) {
        form.setErrors(Object.fromEntries(Object.entries(error.errors).map(([name, messages]) => [name, messages[0]])));
        // The field the server refused takes focus, once it is drawn as refused: the user corrects it at once
        // rather than starting again from the top of the page.
        setTimeout(() => document.getElementById(detailFormId(descriptor.key))?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      }
      alerts.showFailure(error, mode === 'new' ? 'saving new' : 'saving update');
      if (mode === 'edit' && error instanceof ApiError && error.isConflict) void checkNewer().catch(() => undefined);
    },
  });

  const deleteMutation = useMutation({
    // Only the version shown is deleted: one someone else changed since is refused (409) and shown as it is now.
    mutationFn: () => {
      const shown = query.data?.edit_timestamp;
      return api.delete(`/${descriptor.apiPath}/${encodeURIComponent(id)}`, { headers: typeof shown === 'string' ? { 'If-Match': shown } : {} });
    },
    onSuccess: async () => {
      // The record's own query is left to expire: removing it while this screen is still mounted refetches it (404).
      leaveGuard.release();
      navigate(routes.overview);
      alerts.showSuccess('Deleted');
      await invalidateLists();
    },
    onError: (error) => {
      alerts.showFailure(error, 'deleting');
      if (error instanceof ApiError && error.isConflict) void query.refetch();
    },
  });

  /**
   * The server's message of the last save until the field changes; otherwise the form's, once touched (a rule
   * across fields: once anything is).
   */
  const fieldError = (name: string): string | undefined =>
    (form.errors[name] as string | undefined) ?? (form.isTouched(name) || (changing && validation.byRule.has(name)) ? validation.errors[name] : undefined);

  const saving = saveMutation.isPending;
  const isDirty = mode === 'new' ? changing : typedFields.length > 0;
  const leaveGuard = useLeaveGuard((mode === 'new' || mode === 'edit') && isDirty);

  return {
    descriptor,
    id,
    mode,
    record,
    isLoading: !isNew && query.isLoading,
    // Only when there is no record to show: a failed re-read of one on screen (after a refused save or delete,
    // which said why) would say the same again (decision 061).
    loadError: isNew || query.data ? null : query.error,
    values,
    setValue,
    required,
    isReadOnly,
    /** Why this record keeps a field read-only, where a rule of the record does. */
    readOnlyReason: (name: string): string | undefined => frozen[name],
    /** Why the user's role may not change this record (its rules), or null: Edit and Delete say so. */
    lockedBy: record ? whyLockedFor(descriptor, record, user?.userrole_name) : null,
    /** Why this record cannot be deleted (its rules), or null. */
    deleteBlockedBy: record && descriptor.deletable ? (whyLockedFor(descriptor, record, user?.userrole_name) ?? whyNotDeletable(descriptor, record)) : null,
    fieldError,
    formErrors: validation.formErrors,
    isValid: validation.valid,
    isDirty,
    /** A navigation away from unsaved changes, waiting for the user's answer (LeaveDialog). */
    leaveBlocker: leaveGuard.blocker,
    changedFields,
    canWrite,
    canDelete,
    canSave: (mode === 'new' || mode === 'edit') && canWrite && validation.valid && frozenBlocker === null && !saving,
    /**
     * Why Save waits (decision 052): each field not yet right, named with its label, or a field typed in that the
     * record has frozen since (decision 060); null when it may save.
     */
    saveBlockedBy: (mode === 'new' || mode === 'edit') && canWrite ? (frozenBlocker ?? (!validation.valid ? saveBlockers(editable, validation) : null)) : null,
    /** The labels of the fields Save waits for (the line under the title names them; each field says what is wrong). */
    saveBlockedFields: (mode === 'new' || mode === 'edit') && canWrite && !validation.valid ? editable.filter((def) => validation.errors[def.name]).map((def) => def.label) : [],
    saving,
    save: () => saveMutation.mutate({}),
    /** The question of a save the server asks to confirm (confirmFlag): Yes saves again with the flag. */
    confirmation:
      question === null || !confirmFlag
        ? null
        : {
            message: question,
            accept: () => {
              setQuestion(null);
              saveMutation.mutate({ [confirmFlag]: true });
            },
            cancel: () => setQuestion(null),
          },
    /**
     * Someone else saved the record after the user read it (a refused save): what they changed, and the reload
     * that keeps the user's changes over it. Null otherwise.
     */
    newerVersion: newer && mode === 'edit' ? { changedFields: newer.theirs, reloadKeepingChanges } : null,
    deleting: deleteMutation.isPending,
    remove: () => deleteMutation.mutate(),
    startEdit,
    undoEdit,
    setRecord,
    /** Loads the record again (after an action that changed what it shows, e.g. its number of documents). */
    refresh: () => query.refetch(),
    goToOverview: () => navigate(routes.overview),
  };
}

export type Detail = ReturnType<typeof useDetail>;
