import type { Router } from 'express';
import type { ChoiceListName } from '@app/contracts';
import { userroles } from '@app/db';
import type { AppContext } from '../lib/context.js';
import { choiceRouter, tableChoices, type ChoiceSource } from '../lib/crud/choices.js';
import { countryChoices, countryRouter } from './country/country.router.js';
import { loggingTypeChoices, logEventRouter } from './log-event/log-event.router.js';
import { userChoices, userRouter } from './user/user.router.js';

/** Every choice list of the API; the type makes a declared list without a source a compile error. */
function choiceSources(ctx: AppContext): Record<ChoiceListName, ChoiceSource> {
  return {
    countries: countryChoices(ctx),
    logging_types: loggingTypeChoices(ctx),
    userroles: tableChoices(ctx.db, { table: userroles, id: userroles.id, label: userroles.name, order: 'id' }),
    users: userChoices(ctx),
  };
}

/** The one route list: every resource router mounted under /api/v1.0. */
export function resourceRouters(ctx: AppContext): Router[] {
  return [choiceRouter(choiceSources(ctx)), countryRouter(ctx), logEventRouter(ctx), userRouter(ctx)];
}
