import {
  contractResource,
  countryResource,
  invoicePaymentResource,
  invoiceResource,
  logEventResource,
  milestoneResource,
  outboxResource,
  programResource,
  scholarshipPaymentResource,
  studentFeeResource,
  studentResource,
  universityResource,
  userResource,
  viewsOf,
  type AnyResource,
} from '@app/contracts';

/**
 * The resources `registry.ts` gives screens, by descriptor alone: the router knows their paths from this list
 * without loading the screens, which come in a chunk of their own when first opened (issue 11: the login page
 * and the shell start without them). A test keeps this list and the registry the same.
 */
export const screenResources: readonly AnyResource[] = [
  countryResource,
  programResource,
  universityResource,
  studentFeeResource,
  milestoneResource,
  userResource,
  logEventResource,
  studentResource,
  contractResource,
  outboxResource,
  invoiceResource,
  invoicePaymentResource,
  scholarshipPaymentResource,
];

/** The paths of every view's overview and detail screen. */
export function screenPaths(): string[] {
  return screenResources.flatMap((r) => viewsOf(r).flatMap((v) => [v.routes.overview, `${v.routes.detail}/:id`]));
}
