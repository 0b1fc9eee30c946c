import { Badge } from '@mantine/core';
import { OUTBOX_STATUS_COLORS, OUTBOX_STATUS_LABELS, outboxResource, type OutboxMail } from '@app/contracts';
import { defineCells } from '../../machinery/overview/types';

/**
 * A mail's status as a word with a colour: a failed or unknown mail stands out in a long list. Never cut short
 * ("QUEU…" in a 90 px column): Mantine's badge hides what does not fit, so it is told to take the room it needs.
 */
function OutboxStatusBadge({ status }: { status: OutboxMail['status'] }) {
  return (
    <Badge color={OUTBOX_STATUS_COLORS[status]} variant="light" radius="sm" styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
      {OUTBOX_STATUS_LABELS[status]}
    </Badge>
  );
}

export const outboxCells = defineCells(outboxResource, {
  status: (row) => <OutboxStatusBadge status={row.status} />,
});
