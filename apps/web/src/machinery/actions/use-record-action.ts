import { useMutation, useQueryClient } from '@tanstack/react-query';
import { actionPath, type AnyAction, type AnyResource } from '@app/contracts';
import { api, apiDownload, apiRequest } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { queryKeys, refreshAfterWrite } from '../../lib/query-keys';
import { saveFile } from '../../lib/save-file';
import { failureTextOf, recordDoneText, recordLabelOf } from './actions';

type Row = Record<string, unknown> & { id: number | string };

/** When a record whose mail was queued is read again: the outbox usually delivers within a second or two. */
export const MAIL_RECHECK_MS = [2_000, 6_000, 15_000];

/**
 * The mutation key of every record action of a resource (`[…, action name]` below it): a screen asks with it
 * whether any action of its record is still running, and holds the others back until it is done.
 */
export const recordActionKey = (resourceKey: string) => ['record-action', resourceKey] as const;

export interface RecordActionCall {
  id: number | string;
  input?: Record<string, unknown>;
  /** The edit_timestamp shown: the server refuses (409) if the record changed since. */
  version?: string | null;
  /** An upload's file (sent as multipart, field of the action's upload spec). */
  file?: File;
  /** The Idempotency-Key header of this request (decision 050). */
  requestKey?: Record<string, string>;
}

/**
 * Runs one record action and handles its result by kind (CONVENTIONS "Actions"): a record is handed to
 * `onRecord`, said done in a green alert and the lists reload; a message is shown; a file is saved. The record of an action that changes it
 * (`changesRecord`) and answers something else is loaded again. A failure shows the server's 409
 * message or `Server error while {…}` (spec §8).
 */
export function useRecordAction(resource: AnyResource, action: AnyAction, onRecord?: (row: Row) => void) {
  const alerts = useAlerts();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...recordActionKey(resource.key), action.name],
    mutationFn: async ({ id, input = {}, version, file, requestKey }: RecordActionCall) => {
      // The call the spec names, where it names one (spec §7: `PUT /contracts/{id}/update_status`).
      const [method, template] = (action.specPath ? action.specPath.split(' ') : ['POST', actionPath(resource.apiPath, action, 'record')]) as ['PUT' | 'POST', string];
      const path = template.replace(':id', encodeURIComponent(String(id)));
      const headers = { ...(version ? { 'If-Match': version } : {}), ...requestKey };
      if (file) return { row: await api.upload<Row>(path, file, action.upload?.field ?? 'file', { headers }) };
      if (action.result === 'file') {
        return { message: saveFile(await apiDownload(path, { body: input, headers }), action.filename ?? 'download') };
      }
      const answer = await apiRequest<Row | { message: string }>(path, { method, body: input, headers });
      return action.result === 'record' ? { row: answer as Row } : { message: (answer as { message: string }).message };
    },
    onSuccess: async ({ row, message }, { id, input }) => {
      if (row) {
        onRecord?.(row);
        // A one-click action would otherwise change the screen without a word (a status, a new number).
        alerts.showSuccess(recordDoneText(recordLabelOf(action, input), resource, row));
      }
      if (message) alerts.showSuccess(message);
      if (row || message) await refreshAfterWrite(queryClient, resource.key);
      // An action that changed the record without answering it (Plan invoices: the planned amount): a screen
      // showing the record loads it again, and with it what is counted from it (a contract's Documents (n)).
      if (action.changesRecord && !row) await queryClient.invalidateQueries({ queryKey: queryKeys.detail(resource.key, id) });
      // A queued mail's "sent" field is set when the mail server takes it: the record is read again after a few
      // seconds, so staff see it sent without reloading (and do not send it twice).
      if (action.queuesMail) {
        for (const ms of MAIL_RECHECK_MS) setTimeout(() => void queryClient.invalidateQueries({ queryKey: queryKeys.detail(resource.key, id) }), ms);
      }
    },
    onError: (error) => alerts.showFailure(error, failureTextOf(action)),
  });
}
