import { Alert } from '@mantine/core';

/**
 * PLACEHOLDER for the Email tab (issue 12 part B builds the e-mail settings form as its own component): the lead
 * replaces this component at merge. The Configuration page shows it to Developers only.
 */
export function EmailTab() {
  return (
    <Alert color="gray" variant="light" title="Email settings">
      The e-mail settings are not built yet.
    </Alert>
  );
}
