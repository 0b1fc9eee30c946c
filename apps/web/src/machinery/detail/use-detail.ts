import { useCallback, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnyResource, FieldErrors } from '@app/contracts';
import { api, ApiError } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { useAuth } from '../../lib/auth';
import { queryKeys, refreshAfterWrite } from '../../lib/query-keys';
import { fieldSchema, isRequiredSchema } from '../fields/required';
import type { FieldDef } from '../fields/types';
import { kindError, schemaDefault, toFormValue, toWireValue } from '../fields/values';
import { useLeaveGuard } from './leave-guard';

export type DetailMode = 'read' | 'edit' | 'new';

type Row = Record<string, unknown> & { id: number | string; edit_timestamp?: string | null };
type Values = Record<string, unknown>;

interface Draft {
  values: Values;
  /** The record as it was when editing started: the diff and If-Match refer to it, not to a later refetch. */
  base: Row | undefined;
}

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

/**
 * Form values that follow from a change (a contract's end date from its start date): given the changed field,
 * its new form value and all form values, the other fields to set (form values too), or nothing.
 */
export type DeriveValues = (name: string, value: unknown, values: Readonly<Values>) => Values | undefined;

export interface DetailOptions {
  derive?: DeriveValues | undefined;
}

/**
 * One record's screen state (spec §4 "Detail modes"): read-only by default, edit with `?mode=edit`, new when the
 * id is `new`. Validates with the descriptor's create schema, sends only the changed fields plus id (with
 * If-Match) on update and everything on create, deletes, reports failures and refreshes the overviews.
 */
export function useDetail<D extends AnyResource>(descriptor: D, id: string, fields: readonly FieldDef[], options: DetailOptions = {}) {
  const { derive } = options;
  const isNew = id === 'new';
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const alerts = useAlerts();
  const { hasLevel } = useAuth();
  const canWrite = hasLevel(descriptor.access.write);
  const canDelete = canWrite && descriptor.deletable;
  const mode: DetailMode = isNew ? 'new' : searchParams.get('mode') === 'edit' && canWrite ? 'edit' : 'read';
  const detailKey = queryKeys.detail(descriptor.key, id);

  const query = useQuery({
    queryKey: detailKey,
    queryFn: ({ signal }) => api.get<Row>(`/${descriptor.apiPath}/${encodeURIComponent(id)}`, { signal }),
    enabled: !isNew,
  });
  const record = isNew ? undefined : query.data;

  const [draft, setDraft] = useState<Draft | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});

  const initial = useMemo(
    () => formValues(fields, record, isNew ? searchParams : undefined, descriptor.createSchema),
    [fields, record, isNew, searchParams, descriptor.createSchema],
  );
  const values = draft?.values ?? initial;
  const base = draft ? draft.base : record;

  const required = useMemo(
    () => new Set(fields.filter((f) => isRequiredSchema(fieldSchema(descriptor.createSchema, f.name))).map((f) => f.name)),
    [fields, descriptor.createSchema],
  );

  /** Declared fields the user may change in this mode and the create schema knows: only these are sent. */
  const editable = useMemo(
    () => fields.filter((f) => !isFieldReadOnly(f, mode === 'read' ? 'edit' : mode) && fieldSchema(descriptor.createSchema, f.name)),
    [fields, mode, descriptor.createSchema],
  );

  const validation = useMemo(() => {
    const errors: Record<string, string> = {};
    const parsed: Values = {};
    const wire: Values = {};
    for (const def of fields) {
      if (fieldSchema(descriptor.createSchema, def.name)) wire[def.name] = toWireValue(def, values[def.name]);
    }
    for (const def of editable) {
      const typo = kindError(def, values[def.name]);
      if (typo) {
        errors[def.name] = typo;
        continue;
      }
      const result = fieldSchema(descriptor.createSchema, def.name)!.safeParse(wire[def.name]);
      if (result.success) parsed[def.name] = result.data;
      else errors[def.name] = result.error.issues[0]?.message ?? 'Invalid value';
    }
    // The whole object as well, for rules across fields (zod refinements in the contract).
    const whole = descriptor.createSchema.safeParse(wire);
    const formErrors: string[] = [];
    if (!whole.success) {
      for (const issue of whole.error.issues) {
        const name = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
        const isEditable = name !== undefined && editable.some((f) => f.name === name);
        if (isEditable && !errors[name]) errors[name] = issue.message;
        else if (!name && mode === 'new') formErrors.push(issue.message);
        else if (name && !fields.some((f) => f.name === name) && mode === 'new') formErrors.push(`${name}: ${issue.message}`);
      }
    }
    return {
      errors,
      formErrors,
      parsed,
      createBody: whole.success ? (whole.data as Values) : undefined,
      valid: Object.keys(errors).length === 0 && formErrors.length === 0,
    };
  }, [values, fields, editable, descriptor.createSchema, mode]);

  const changedFields = useMemo(() => {
    if (mode !== 'edit' || !base) return [];
    return editable
      .filter((def) => !sameWire(toWireValue(def, values[def.name]), toWireValue(def, toFormValue(def, base[def.name]))))
      .map((def) => def.name);
  }, [mode, base, editable, values]);

  const setValue = useCallback(
    (name: string, value: unknown) => {
      const current = draft?.values ?? initial;
      const changes: Values = { [name]: value, ...derive?.(name, value, { ...current, [name]: value }) };
      const names = Object.keys(changes);
      setDraft((d) => ({ base: d ? d.base : record, values: { ...(d?.values ?? initial), ...changes } }));
      setTouched((t) => (names.every((n) => t.has(n)) ? t : new Set([...t, ...names])));
      setServerErrors((e) => {
        if (!names.some((n) => n in e)) return e;
        return Object.fromEntries(Object.entries(e).filter(([n]) => !names.includes(n)));
      });
    },
    [draft, record, initial, derive],
  );

  /** Shows a record the server answered to an action (a status change) as the current one. */
  const setRecord = useCallback((row: Row) => queryClient.setQueryData(detailKey, row), [queryClient, detailKey]);

  const resetForm = useCallback(() => {
    setDraft(null);
    setTouched(new Set());
    setServerErrors({});
  }, []);

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
    resetForm();
    setSearchParams((p) => {
      const next = new URLSearchParams(p);
      next.set('mode', 'edit');
      return next;
    });
  }, [resetForm, setSearchParams]);

  const undoEdit = useCallback(() => {
    resetForm();
    leaveEditMode();
  }, [resetForm, leaveEditMode]);

  const invalidateLists = useCallback(() => refreshAfterWrite(queryClient, descriptor.key), [queryClient, descriptor.key]);

  const saveMutation = useMutation({
    mutationFn: async (): Promise<{ created?: number | string; row?: Row }> => {
      if (mode === 'new') {
        const body = validation.createBody ?? validation.parsed;
        const { id: created } = await api.post<{ id: number | string }>(`/${descriptor.apiPath}`, body);
        return { created };
      }
      if (!base) throw new Error('No record to update');
      if (changedFields.length === 0) return {};
      const body: Values = { id: base.id };
      for (const name of changedFields) body[name] = validation.parsed[name];
      const headers: Record<string, string> = {};
      if (typeof base.edit_timestamp === 'string') headers['If-Match'] = base.edit_timestamp;
      const row = await api.put<Row>(`/${descriptor.apiPath}/${encodeURIComponent(String(base.id))}`, body, { headers });
      return { row };
    },
    onSuccess: async ({ created, row }) => {
      if (created !== undefined) {
        alerts.showSuccess('Saved');
        leaveGuard.release();
        navigate(`${descriptor.routes.detail}/${created}`, { replace: true });
      } else {
        if (row) {
          queryClient.setQueryData(detailKey, row);
          alerts.showSuccess('Saved');
        }
        resetForm();
        leaveEditMode();
      }
      await invalidateLists();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.isValidation) setServerErrors(error.errors);
      alerts.showFailure(error, mode === 'new' ? 'saving new' : 'saving update');
    },
  });

  const deleteMutation = useMutation({
    mutationFn: () => api.delete(`/${descriptor.apiPath}/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      // The record's own query is left to expire: removing it while this screen is still mounted refetches it (404).
      leaveGuard.release();
      navigate(descriptor.routes.overview);
      alerts.showSuccess('Deleted');
      await invalidateLists();
    },
    onError: (error) => alerts.showFailure(error, 'deleting'),
  });

  const fieldError = (name: string): string | undefined =>
    serverErrors[name]?.[0] ?? (touched.has(name) ? validation.errors[name] : undefined);

  const saving = saveMutation.isPending;
  const isDirty = mode === 'new' ? draft !== null : changedFields.length > 0;
  const leaveGuard = useLeaveGuard((mode === 'new' || mode === 'edit') && isDirty);

  return {
    descriptor,
    id,
    mode,
    record,
    isLoading: !isNew && query.isLoading,
    loadError: isNew ? null : query.error,
    values,
    setValue,
    required,
    isReadOnly: (def: FieldDef) => isFieldReadOnly(def, mode),
    fieldError,
    formErrors: validation.formErrors,
    isValid: validation.valid,
    isDirty,
    /** A navigation away from unsaved changes, waiting for the user's answer (LeaveDialog). */
    leaveBlocker: leaveGuard.blocker,
    changedFields,
    canWrite,
    canDelete,
    canSave: (mode === 'new' || mode === 'edit') && canWrite && validation.valid && !saving,
    saving,
    save: () => saveMutation.mutate(),
    deleting: deleteMutation.isPending,
    remove: () => deleteMutation.mutate(),
    startEdit,
    undoEdit,
    setRecord,
    /** Loads the record again (after an action that changed what it shows, e.g. its number of documents). */
    refresh: () => query.refetch(),
    goToOverview: () => navigate(descriptor.routes.overview),
  };
}

export type Detail = ReturnType<typeof useDetail>;
