import { outboxResource } from '@app/contracts';
import { defineResourceUi } from '../../machinery/resource-ui';
import { outboxCells } from './outbox.cells';
import { OutboxInfo } from './outbox.extras';
import { outboxFields } from './outbox.fields';
import { outboxFilters } from './outbox.filters';

/**
 * The Outbox (issue 12, Administrator and above): every mail, newest first, read-only; a failed or unknown one
 * offers Resend (its confirm warns that an unknown one may arrive twice). Nobody creates mails here.
 */
export const outboxUi = defineResourceUi({
  descriptor: outboxResource,
  cells: outboxCells,
  fields: outboxFields,
  filters: outboxFilters,
  overview: { newPath: null },
  detail: { info: (detail) => <OutboxInfo detail={detail} /> },
});
