import type { AnyResource } from '../common/resource.js';
import { countryResource } from './country.js';

export * from './country.js';

/** Every resource served by the generic machinery. */
export const resources: readonly AnyResource[] = [countryResource];
