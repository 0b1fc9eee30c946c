import { notifications } from '@mantine/notifications';
import { ApiError } from './api-client';

export type AlertKind = 'error' | 'success';

export interface Alerts {
  showError: (message: string) => void;
  showSuccess: (message: string) => void;
  /**
   * Reports a failed call (spec §8): a 409, 403 or 404 shows the server's message; a 401 shows nothing (the user is
   * sent to the login screen); anything else shows `Server error while {action}`, followed by the server's reason
   * when a 5xx gives one.
   */
  showFailure: (error: unknown, action: string) => void;
  /**
   * A note that something is under way (an export of many rows takes a minute): shown until the returned function
   * is called, with a spinner and no close button.
   */
  showProgress: (message: string) => () => void;
  /** Removes every alert (at logout: the next user must not see this one's). */
  clear: () => void;
  /** Removes the error alerts: another screen was opened (decision 052). */
  clearErrors: () => void;
}

/**
 * Success toasts go away by themselves; errors stay until dismissed, until something succeeds (the error was
 * answered: the retry worked), or until another screen is opened (decision 052).
 */
const SUCCESS_VISIBLE_MS = 6000;

export function failureMessage(error: unknown, action: string): string | null {
  if (error instanceof ApiError) {
    if (error.isUnauthenticated) return null;
    // A refusal says why in words, a 403 as a 409 does ("Only a Developer may change a Developer account"), and
    // a 404 names what is gone ("Student 25 not found: it may have been deleted", decision 060).
    if (error.isConflict || error.status === 403 || error.status === 404) return error.message;
    // The spec's words first (§8), then what the server says went wrong, when it says (issue 18 point 4: a
    // template that does not render names itself and its line), and the request's reference, by which the
    // operator finds it in the server log (decision 055).
    const reference = error.requestId ? ` (reference ${error.requestId})` : '';
    if (error.reason) return `Server error while ${action}: ${error.reason}${reference}`;
    // A 400 names the field and what is wrong with it: said here too, so the alert does not read as a fault of
    // the server ("Server error while saving new: Payment date cannot be in the future").
    const fieldMessage = error.isValidation ? Object.values(error.errors).flat()[0] : undefined;
    if (fieldMessage) return `Server error while ${action}: ${fieldMessage}`;
    return `Server error while ${action}${reference}`;
  }
  return `Server error while ${action}`;
}

/** Later toasts go first when more are open than the container shows: a new failure is never queued unseen. */
let sequence = 0;

/**
 * A dismissible toast (spec §8): red for errors, announced at once (role alert); green for success, announced
 * politely (role status). One toast per kind and message: saving twice in a row shows one "Saved".
 */
const shownErrors = new Set<string>();
/**
 * The green toast shown last: a new one takes its place, so what is green on screen is about the last thing done
 * ("Document deleted" no longer stands beside the "Uploaded" that followed it).
 */
let shownSuccess: string | undefined;

function clearErrors(): void {
  for (const id of shownErrors) notifications.hide(id);
  shownErrors.clear();
}

function show(kind: AlertKind, message: string): void {
  const error = kind === 'error';
  const id = `${kind}:${message}`;
  if (error) shownErrors.add(id);
  else {
    clearErrors();
    if (shownSuccess !== undefined && shownSuccess !== id) notifications.hide(shownSuccess);
    shownSuccess = id;
  }
  notifications.show({
    id,
    message,
    color: error ? 'red' : 'green',
    role: error ? 'alert' : 'status',
    autoClose: error ? false : SUCCESS_VISIBLE_MS,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': 'Dismiss', title: 'Dismiss' },
    priority: ++sequence,
  });
}

function showProgress(message: string): () => void {
  const id = `progress:${++sequence}`;
  notifications.show({ id, message, loading: true, role: 'status', autoClose: false, withCloseButton: false, priority: sequence });
  return () => notifications.hide(id);
}

const alerts: Alerts = {
  showError: (message) => show('error', message),
  showSuccess: (message) => show('success', message),
  showProgress,
  showFailure: (error, action) => {
    const message = failureMessage(error, action);
    if (message) show('error', message);
  },
  clear: () => {
    shownErrors.clear();
    shownSuccess = undefined;
    notifications.clean();
  },
  clearErrors,
};

/** The app's alerts, drawn as toasts by the `Notifications` of the app's providers. */
export function useAlerts(): Alerts {
  return alerts;
}
