import type { Router } from 'express';
import type { ChoiceListName } from '@app/contracts';
import { scholarships, userroles } from '@app/db';
import type { AppContext } from '../lib/context.js';
import { choiceRouter, distinctChoices, tableChoices, type ChoiceSource } from '../lib/crud/choices.js';
import { countryChoices, countryRouter } from './country/country.router.js';
import { loggingTypeChoices, logEventRouter } from './log-event/log-event.router.js';
import { milestoneRouter } from './milestone/milestone.router.js';
import { programChoices, programRouter } from './program/program.router.js';
import { studentFeeRouter } from './student-fee/student-fee.router.js';
import { universityChoices, universityRouter } from './university/university.router.js';
import { userChoices, userRouter } from './user/user.router.js';
import { studentChoices, studentRouter } from './student/student.router.js';
import { contractChoices, contractRouter } from './contract/contract.router.js';
import { contractFileRouter } from './contract-file/contract-file.router.js';

/** Every choice list of the API; the type makes a declared list without a source a compile error. */
function choiceSources(ctx: AppContext): Record<ChoiceListName, ChoiceSource> {
  return {
    countries: countryChoices(ctx),
    logging_types: loggingTypeChoices(ctx),
    userroles: tableChoices(ctx.db, { table: userroles, id: userroles.id, label: userroles.name, order: 'id' }),
    users: userChoices(ctx),
    programs: programChoices(ctx),
    universities: universityChoices(ctx),
    scholarships: tableChoices(ctx.db, { table: scholarships, id: scholarships.id, label: scholarships.code }),
    scholarships_type: distinctChoices(ctx.db, { table: scholarships, column: scholarships.type }),
    scholarships_region: distinctChoices(ctx.db, { table: scholarships, column: scholarships.region }),
    students: studentChoices(ctx),
    ...contractChoices(ctx),
  };
}

/** The one route list: every resource router mounted under /api/v1.0. */
export function resourceRouters(ctx: AppContext): Router[] {
  return [
    choiceRouter(choiceSources(ctx)),
    countryRouter(ctx),
    logEventRouter(ctx),
    userRouter(ctx),
    programRouter(ctx),
    universityRouter(ctx),
    studentFeeRouter(ctx),
    milestoneRouter(ctx),
    studentRouter(ctx),
    contractRouter(ctx),
    contractFileRouter(ctx),
  ];
}
