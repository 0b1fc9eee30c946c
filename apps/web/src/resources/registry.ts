import type { ResourceUi } from '../machinery/resource-ui';
import { countryUi } from './country/country.ui';

/** Every resource with generic screens. A new resource adds its declaration here, and nothing else. */
export const resourceUis: readonly ResourceUi[] = [countryUi];
