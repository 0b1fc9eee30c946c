import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor } from '@mantine/core';

/**
 * A link in an overview cell to another screen (a contract's student). The click stays with the link: the
 * row's own click (opening the row's record) must not follow it.
 */
export function CellLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} size="sm" onClick={(e) => e.stopPropagation()}>
      {children}
    </Anchor>
  );
}
