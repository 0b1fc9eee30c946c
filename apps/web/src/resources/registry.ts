import type { ResourceUi } from '../machinery/resource-ui';
import { contractUi } from './contract/contract.ui';
import { countryUi } from './country/country.ui';
import { invoiceUi } from './invoice/invoice.ui';
import { invoicePaymentUi } from './invoice-payment/invoice-payment.ui';
import { scholarshipPaymentUi } from './scholarship-payment/scholarship-payment.ui';
import { logEventUi } from './log-event/log-event.ui';
import { milestoneUi } from './milestone/milestone.ui';
import { outboxUi } from './outbox/outbox.ui';
import { programUi } from './program/program.ui';
import { studentFeeUi } from './student-fee/student-fee.ui';
import { studentUi } from './student/student.ui';
import { universityUi } from './university/university.ui';
import { userUi } from './user/user.ui';

/**
 * Every resource with generic screens. A new resource adds its declaration here and its descriptor to
 * `screens.ts` (the router's list, which must not load these screens). This module is loaded on the first
 * screen of a resource, not with the login page.
 */
export const resourceUis: readonly ResourceUi[] = [
  countryUi,
  programUi,
  universityUi,
  studentFeeUi,
  milestoneUi,
  userUi,
  logEventUi,
  studentUi,
  contractUi,
  outboxUi,
  invoiceUi,
  invoicePaymentUi,
  scholarshipPaymentUi,
];
