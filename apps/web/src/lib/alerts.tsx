import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Stack } from '@mantine/core';
import { ApiError } from './api-client';

export type AlertKind = 'error' | 'success';

export interface AppAlert {
  id: number;
  kind: AlertKind;
  message: string;
}

interface AlertsContextValue {
  alerts: readonly AppAlert[];
  showError: (message: string) => void;
  showSuccess: (message: string) => void;
  /**
   * Reports a failed call (spec §8): a 409 shows the server's message; a 401 shows nothing (the user is sent
   * to the login screen); anything else shows `Server error while {action}`.
   */
  showFailure: (error: unknown, action: string) => void;
  dismiss: (id: number) => void;
  clear: () => void;
}

const AlertsContext = createContext<AlertsContextValue | null>(null);

/** Success alerts go away by themselves; errors stay until dismissed. */
const SUCCESS_VISIBLE_MS = 6000;
const MAX_ALERTS = 5;

export function failureMessage(error: unknown, action: string): string | null {
  if (error instanceof ApiError) {
    if (error.isUnauthenticated) return null;
    if (error.isConflict) return error.message;
  }
  return `Server error while ${action}`;
}

export function AlertsProvider({ children }: { children: ReactNode }) {
  const [alerts, setAlerts] = useState<AppAlert[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
    setAlerts((list) => list.filter((a) => a.id !== id));
  }, []);

  const push = useCallback(
    (kind: AlertKind, message: string) => {
      const id = nextId.current++;
      setAlerts((list) => [...list.filter((a) => !(a.kind === kind && a.message === message)), { id, kind, message }].slice(-MAX_ALERTS));
      if (kind === 'success') timers.current.set(id, setTimeout(() => dismiss(id), SUCCESS_VISIBLE_MS));
    },
    [dismiss],
  );

  const clear = useCallback(() => {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    setAlerts([]);
  }, []);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);

  const value = useMemo<AlertsContextValue>(
    () => ({
      alerts,
      showError: (message) => push('error', message),
      showSuccess: (message) => push('success', message),
      showFailure: (error, action) => {
        const message = failureMessage(error, action);
        if (message) push('error', message);
      },
      dismiss,
      clear,
    }),
    [alerts, push, dismiss, clear],
  );

  return <AlertsContext.Provider value={value}>{children}</AlertsContext.Provider>;
}

export function useAlerts(): AlertsContextValue {
  const value = useContext(AlertsContext);
  if (!value) throw new Error('useAlerts needs an <AlertsProvider>');
  return value;
}

/** The dismissible alerts of the page: red for errors, green for success (spec §8). */
export function AlertList() {
  const { alerts, dismiss } = useAlerts();
  if (alerts.length === 0) return null;
  return (
    <Stack gap="xs" mb="sm">
      {alerts.map((a) => (
        <Alert
          key={a.id}
          color={a.kind === 'error' ? 'red' : 'green'}
          variant="light"
          role={a.kind === 'error' ? 'alert' : 'status'}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => dismiss(a.id)}
          py="xs"
        >
          {a.message}
        </Alert>
      ))}
    </Stack>
  );
}
