import { useMutation } from '@tanstack/react-query';
import { Button } from '@mantine/core';
import type { AnyResource } from '@app/contracts';
import { api } from '../../lib/api-client';
import { useAlerts } from '../../lib/alerts';
import { saveFile } from '../../lib/save-file';
import type { Overview } from './use-overview';

export type ExportBody = { ids: (number | string)[] } | { filter: Record<string, string | number | boolean> };

/**
 * What an export covers (DESIGN §4): the selected rows when there are any, otherwise every row of the current
 * filter (quick filter, advanced filters, fixed filters and sort: the list query without its paging).
 */
export function exportBody(overview: Pick<Overview, 'selection' | 'params'>): ExportBody {
  if (overview.selection.count > 0) return { ids: [...overview.selection.ids] };
  const filter: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(overview.params)) {
    if (key === 'page' || key === 'per_page' || value === undefined || value === null || value === '') continue;
    filter[key] = value;
  }
  return { filter };
}

export interface ExportButtonProps<D extends AnyResource> {
  overview: Overview<D>;
  label: string;
  /** The export call under /api/v1.0 (`/students/download_report`). */
  path: string;
  /** The name the file is saved under if the server gives none. */
  filename: string;
}

/** An export of an overview's extra options: downloads the file and lets the browser save it. */
export function ExportButton<D extends AnyResource>({ overview, label, path, filename }: ExportButtonProps<D>) {
  const alerts = useAlerts();
  const mutation = useMutation({
    mutationFn: () => api.download(path, exportBody(overview)),
    onSuccess: (file) => saveFile(file, filename),
    onError: (error) => alerts.showFailure(error, `exporting ${filename}`),
  });
  const count = overview.selection.count;
  return (
    <Button
      variant="default"
      size="sm"
      onClick={() => mutation.mutate()}
      loading={mutation.isPending}
      title={count > 0 ? `Exports the ${count} selected rows` : 'Exports every row of the current filter'}
    >
      {label}
    </Button>
  );
}
