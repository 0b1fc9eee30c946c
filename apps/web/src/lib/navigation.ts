import { contractResource, studentResource, type AnyResource } from '@app/contracts';

/** The detail route of a record (`/contract/12`); `new` opens the new-record screen. */
export function detailPath(descriptor: Pick<AnyResource, 'routes'>, id: number | string): string {
  return `${descriptor.routes.detail}/${encodeURIComponent(String(id))}`;
}

/** The named navigation targets of the spec (§2): screens other screens link to by id. */
export const navigationTargets = {
  contract: (id: number | string) => detailPath(contractResource, id),
  student: (id: number | string) => detailPath(studentResource, id),
} as const;
