import type { AnyResource } from '../common/resource.js';
import { countryResource } from './country.js';
import { logEventResource } from './log-event.js';
import { userResource } from './user.js';
import { programResource } from './program.js';
import { universityResource } from './university.js';
import { studentFeeResource } from './student-fee.js';
import { milestoneResource } from './milestone.js';
import { studentResource } from './student.js';
import { contractResource } from './contract.js';
import { contractFileResource } from './contract-file.js';
import { outboxResource } from './outbox.js';
import { invoiceResource } from './invoice.js';
import { invoicePaymentResource } from './invoice-payment.js';
import { scholarshipPaymentResource } from './scholarship-payment.js';

export * from './country.js';
export * from './log-event.js';
export * from './user.js';
export * from './program.js';
export * from './university.js';
export * from './student-fee.js';
export * from './milestone.js';
export * from './student.js';
export * from './contract.js';
export * from './contract-import.js';
export * from './contract-file.js';
export * from './outbox.js';
export * from './invoice.js';
export * from './invoice-planning.js';
export * from './invoice-payment.js';
export * from './contract-finance.js';
export * from './scholarship-payment.js';

/** Every resource served by the generic machinery. */
export const resources: readonly AnyResource[] = [
  countryResource,
  logEventResource,
  userResource,
  programResource,
  universityResource,
  studentFeeResource,
  milestoneResource,
  studentResource,
  contractResource,
  contractFileResource,
  outboxResource,
  invoiceResource,
  invoicePaymentResource,
  scholarshipPaymentResource,
];
