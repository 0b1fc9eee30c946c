import { countryResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { countryFields } from './country.fields';

export const countryUi = defineResourceUi({ descriptor: countryResource, fields: countryFields });
