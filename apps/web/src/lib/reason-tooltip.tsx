import type { ReactElement } from 'react';
import { Tooltip } from '@mantine/core';

/**
 * A disabled button with why it is disabled (decision 055). A disabled button gets neither pointer events nor
 * focus: the wrapper takes both, shows the reason as a tooltip on hover and on focus, and gives it to screen
 * readers as the wrapper's description. The reason was reachable by mouse only.
 */
export function ReasonTooltip({ reason, children }: { reason: string | null | undefined; children: ReactElement }) {
  // One shape with a reason or without: the button is not mounted anew when its reason comes or goes. The reason
  // is an attribute, not text of the page: the field's own message says the same, once.
  return (
    <Tooltip label={reason ?? ''} disabled={!reason} withArrow multiline maw={420} events={{ hover: true, focus: true, touch: true }}>
      <span tabIndex={reason ? 0 : undefined} aria-description={reason ?? undefined} style={{ display: 'inline-block' }}>
        {children}
      </span>
    </Tooltip>
  );
}
