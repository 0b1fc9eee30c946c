import type { Router } from 'express';
import { ROLE_IDS, type ChoiceListName } from '@app/contracts';
import { scholarships, userroles } from '@app/db';
import { actionRouter } from '../lib/actions/router.js';
import type { ResourceModule } from '../lib/actions/module.js';
import { batchRunRouter } from '../lib/batch/batch-router.js';
import type { AppContext } from '../lib/context.js';
import { choiceRouter, distinctChoices, tableChoices, type ChoiceSource } from '../lib/crud/choices.js';
import { crudRouter } from '../lib/crud/crud-router.js';
import { countryChoices, countryModule } from './country/country.router.js';
import { loggingTypeChoices, logEventModule } from './log-event/log-event.router.js';
import { milestoneModule } from './milestone/milestone.router.js';
import { programChoices, programModule } from './program/program.router.js';
import { studentFeeModule } from './student-fee/student-fee.router.js';
import { universityChoices, universityModule } from './university/university.router.js';
import { userChoices, userModule } from './user/user.router.js';
import { studentChoices, studentModule } from './student/student.router.js';
import { contractChoices, contractModule } from './contract/contract.router.js';
import { contractFileModule } from './contract-file/contract-file.router.js';
import { outboxModule } from './outbox/outbox.router.js';
import { invoiceChoices, invoiceModule } from './invoice/invoice.router.js';
import { invoicePaymentModule } from './invoice-payment/invoice-payment.router.js';
import { scholarshipPaymentChoices, scholarshipPaymentModule } from './scholarship-payment/scholarship-payment.router.js';

/** Every choice list of the API; the type makes a declared list without a source a compile error. */
function choiceSources(ctx: AppContext): Record<ChoiceListName, ChoiceSource> {
  return {
    countries: countryChoices(ctx),
    logging_types: loggingTypeChoices(ctx),
    userroles: {
      ...tableChoices(ctx.db, { table: userroles, id: userroles.id, label: userroles.name, order: 'id' }),
      // Only a Developer gives the Developer role (decision 011): nobody else is offered it (decision 054).
      forRole: (choices, role) => (role === 'Developer' ? choices : choices.filter((c) => c.id !== ROLE_IDS.Developer)),
    },
    users: userChoices(ctx),
    programs: programChoices(ctx),
    universities: universityChoices(ctx),
    scholarships: tableChoices(ctx.db, { table: scholarships, id: scholarships.id, label: scholarships.code }),
    scholarships_type: distinctChoices(ctx.db, { table: scholarships, column: scholarships.type }),
    scholarships_region: distinctChoices(ctx.db, { table: scholarships, column: scholarships.region }),
    students: studentChoices(ctx),
    ...contractChoices(ctx),
    ...invoiceChoices(ctx),
    ...scholarshipPaymentChoices(ctx),
  };
}

/** The one list of resources the API serves: each one's service and action functions. */
export function resourceModules(ctx: AppContext): ResourceModule[] {
  // The contract imports write students through the students' own service (rules, audit, the bank-info hook).
  const students = studentModule(ctx);
  return [
    countryModule(ctx),
    logEventModule(ctx),
    userModule(ctx),
    programModule(ctx),
    universityModule(ctx),
    studentFeeModule(ctx),
    milestoneModule(ctx),
    students,
    contractModule(ctx, students.service),
    contractFileModule(ctx),
    outboxModule(ctx),
    invoiceModule(ctx),
    invoicePaymentModule(ctx),
    scholarshipPaymentModule(ctx),
  ];
}

/** The modules by resource key, as the batch workers look them up. */
export function modulesByKey(modules: readonly ResourceModule[]): ReadonlyMap<string, ResourceModule> {
  return new Map(modules.map((m) => [m.resource.key, m]));
}

/** Every route under /api/v1.0 besides authentication: choices, then each resource's actions and CRUD. */
export function resourceRouters(ctx: AppContext, modules: readonly ResourceModule[]): Router[] {
  return [
    choiceRouter(choiceSources(ctx)),
    batchRunRouter(ctx, modulesByKey(modules)),
    // Action routes and a module's own routes before CRUD: `/contracts/bulk_edit` and `/contracts/import_template`
    // are not record ids.
    ...modules.flatMap((m) => [actionRouter(ctx, m), ...(m.routes ? [m.routes] : []), crudRouter(m.service)]),
  ];
}
