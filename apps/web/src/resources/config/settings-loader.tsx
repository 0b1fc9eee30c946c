import { useEffect, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Loader } from '@mantine/core';
import { api } from '../../lib/api-client';

/** A settings tab's stored values (`GET path`): a loader while they come, a red alert naming the tab if they do not. */
export function SettingsLoader<T>(props: { queryKey: readonly unknown[]; path: string; name: string; children: (config: T) => ReactNode }) {
  const query = useQuery({ queryKey: props.queryKey, queryFn: () => api.get<T>(props.path) });
  if (query.isPending) return <Loader aria-label="Loading" />;
  if (query.isError || !query.data)
    return (
      <Alert color="red" role="alert">
        The {props.name} settings could not be loaded
      </Alert>
    );
  return props.children(query.data);
}

/** Tells the configuration screen whether a settings form holds unsaved changes (and that it holds none once gone). */
export function useReportChanges(dirty: boolean, onDirtyChange: ((dirty: boolean) => void) | undefined) {
  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);
}
