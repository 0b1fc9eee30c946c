import type { ReactNode } from 'react';
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
