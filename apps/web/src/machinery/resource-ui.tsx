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
  fields: readonly FieldDef[];
  overview?: Omit<OverviewPageProps<D>, 'descriptor' | 'columns'>;
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

/** Turns a resource's declarations into its two routes: `{overview}` and `{detail}/:id`. */
export function defineResourceUi<D extends AnyResource>(ui: ResourceUiDeclaration<D>): ResourceUi {
  const { descriptor } = ui;
  const gate = (element: ReactNode) =>
    descriptor.access.read === 'reader' ? element : <RequireLevel level={descriptor.access.read}>{element}</RequireLevel>;
  const overview = ui.overviewElement ?? <OverviewPage descriptor={descriptor} columns={ui.columns} {...ui.overview} />;
  const detail = ui.detailElement ?? <DetailPage descriptor={descriptor} fields={ui.fields} {...ui.detail} />;
  return {
    descriptor,
    routes: [
      { path: descriptor.routes.overview, element: gate(overview) },
      { path: `${descriptor.routes.detail}/:id`, element: gate(detail) },
    ],
  };
}
