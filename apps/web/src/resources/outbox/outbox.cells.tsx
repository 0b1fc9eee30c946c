import { Badge } from '@mantine/core';
import { OUTBOX_STATUS_COLORS, OUTBOX_STATUS_LABELS, outboxResource } from '@app/contracts';
import { defineCells } from '../../machinery/overview/types';

/** The status as a word with a colour: a failed or unknown mail stands out in a long list. */
export const outboxCells = defineCells(outboxResource, {
  status: (row) => (
    <Badge color={OUTBOX_STATUS_COLORS[row.status]} variant="light" radius="sm">
      {OUTBOX_STATUS_LABELS[row.status]}
    </Badge>
  ),
});
