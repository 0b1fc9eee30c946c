import { countryResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { countryColumns } from './country.columns';
import { countryFields } from './country.fields';

export const countryUi = defineResourceUi({ descriptor: countryResource, columns: countryColumns, fields: countryFields });
