import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import type { AnyResource } from '@app/contracts';
import { RequireLevel } from '../lib/auth-guards';
import { DetailPage, type DetailPageProps } from './detail/detail-page';
import { OverviewPage, type OverviewPageProps } from './overview/overview-page';
import type { Column, RowOf } from './overview/types';
import type { FieldDef } from './fields/types';

/** Everything the web declares about one resource: a descriptor, its columns and fields, and any extras. */
export interface ResourceUiDeclaration<D extends AnyResource> {
  descriptor: D;
  columns: Column<RowOf<D>>[];
  /** The detail screen's fields; null where records have no detail screen (the event log). */
  fields: readonly FieldDef[] | null;
  /** The advanced filter fields of the overview (`<resource>.filters.tsx`), where it has any. */
  filters?: readonly FieldDef[];
  overview?: Omit<OverviewPageProps<D>, 'descriptor' | 'columns' | 'filters'>;
  detail?: Omit<DetailPageProps<D>, 'descriptor' | 'fields' | 'id'>;
  /** Screens drawn by the resource itself, where the spec asks for more than the generic ones. */
  overviewElement?: ReactNode;
  detailElement?: ReactNode;
}

/** A registered resource: its routes, ready for the router. */
export interface ResourceUi {
  descriptor: AnyResource;
  routes: RouteObject[];
}

/** Turns a resource's declarations into its routes: `{overview}` and, where it has one, `{detail}/:id`. */
export function defineResourceUi<D extends AnyResource>(ui: ResourceUiDeclaration<D>): ResourceUi {
  const { descriptor, fields } = ui;
  const gate = (element: ReactNode) =>
    descriptor.access.read === 'reader' ? element : <RequireLevel level={descriptor.access.read}>{element}</RequireLevel>;
  const overview = ui.overviewElement ?? (
    <OverviewPage
      descriptor={descriptor}
      columns={ui.columns}
      filters={ui.filters}
      {...(fields === null && !ui.detailElement ? { detailPath: null } : {})}
      {...ui.overview}
    />
  );
  const detail = ui.detailElement ?? (fields && <DetailPage descriptor={descriptor} fields={fields} {...ui.detail} />);
  const routes: RouteObject[] = [{ path: descriptor.routes.overview, element: gate(overview) }];
  if (detail) routes.push({ path: `${descriptor.routes.detail}/:id`, element: gate(detail) });
  return { descriptor, routes };
}
