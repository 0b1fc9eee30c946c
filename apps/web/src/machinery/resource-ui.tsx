import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { viewsOf, type AnyResource } from '@app/contracts';
import { RequireLevel } from '../lib/auth-guards';
import { DetailPage, type DetailPageProps } from './detail/detail-page';
import { OverviewPage, type OverviewPageProps } from './overview/overview-page';
import type { Cells, RowOf } from './overview/types';
import type { FieldDef } from './fields/types';

/**
 * Everything the web declares about one resource: its descriptor (columns, views and actions come from it), how
 * some cells are drawn, its detail fields and filters, and any extras.
 */
export interface ResourceUiDeclaration<D extends AnyResource> {
  descriptor: D;
  /** Cells drawn as more than their formatted value (`<resource>.cells.tsx`). */
  cells?: Cells<RowOf<D>>;
  /** The detail screen's fields; null where records have no detail screen (the event log). */
  fields: readonly FieldDef[] | null;
  /** The advanced filter fields of the overview (`<resource>.filters.tsx`), where it has any. */
  filters?: readonly FieldDef[];
  overview?: Omit<OverviewPageProps<D>, 'descriptor' | 'view' | 'cells' | 'filters' | 'fields'>;
  detail?: Omit<DetailPageProps<D>, 'descriptor' | 'view' | 'fields' | 'id'>;
  /**
   * Where a resource has several views: the key of the view a record belongs in, from its fields (the views'
   * fixed filters say the same on the server: `planned` is no number and no credit note). Its detail screen is
   * shown under that view's route, also after an action moved it there (Create PDF: planned → numbered).
   */
  viewOf?: (record: RowOf<D>) => string;
  /** Screens drawn by the resource itself, where the spec asks for more than the generic ones. */
  overviewElement?: ReactNode;
  detailElement?: ReactNode;
}

/** A registered resource: its routes, ready for the router. */
export interface ResourceUi {
  descriptor: AnyResource;
  /** Its detail fields (null without a detail screen): what its Bulk Edit dialog draws, too. */
  fields: readonly FieldDef[] | null;
  routes: RouteObject[];
}

/** Turns a resource's declarations into its routes: each view's overview and, where it has one, its detail. */
export function defineResourceUi<D extends AnyResource>(ui: ResourceUiDeclaration<D>): ResourceUi {
  const { descriptor, fields } = ui;
  const gate = (element: ReactNode) =>
    descriptor.access.read === 'reader' ? element : <RequireLevel level={descriptor.access.read}>{element}</RequireLevel>;
  const routes = viewsOf(descriptor).flatMap((view): RouteObject[] => {
    const overview = ui.overviewElement ?? (
      <OverviewPage
        descriptor={descriptor}
        view={view}
        cells={ui.cells}
        filters={ui.filters}
        fields={fields ?? []}
        {...(fields === null && !ui.detailElement ? { detailPath: null } : {})}
        {...ui.overview}
      />
    );
    const viewOf = ui.viewOf as ((record: Record<string, unknown>) => string) | undefined;
    const detail = ui.detailElement ?? (fields && <DetailPage descriptor={descriptor} view={view} fields={fields} viewOf={viewOf} {...ui.detail} />);
    return [{ path: view.routes.overview, element: gate(overview) }, ...(detail ? [{ path: `${view.routes.detail}/:id`, element: gate(detail) }] : [])];
  });
  return { descriptor, fields, routes };
}
