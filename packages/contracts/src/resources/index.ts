import type { AnyResource } from '../common/resource.js';
import { countryResource } from './country.js';
import { logEventResource } from './log-event.js';
import { userResource } from './user.js';

export * from './country.js';
export * from './log-event.js';
export * from './user.js';

/** Every resource served by the generic machinery. */
export const resources: readonly AnyResource[] = [countryResource, logEventResource, userResource];
