import { logEventResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { logEventColumns } from './log-event.columns';
import { logEventFilters } from './log-event.filters';

/** The event log: an overview only, newest first; nobody creates or opens events (spec §2). */
export const logEventUi = defineResourceUi({
  descriptor: logEventResource,
  columns: logEventColumns,
  fields: null,
  filters: logEventFilters,
});
