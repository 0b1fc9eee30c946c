import { logEventResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { logEventFilters } from './log-event.filters';

/** The event log: an overview only, newest first; nobody creates or opens events (spec §2). */
export const logEventUi = defineResourceUi({
  descriptor: logEventResource,
 
  fields: null,
  filters: logEventFilters,
});
