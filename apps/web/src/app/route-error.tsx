import { Link, useRouteError } from 'react-router';
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';

/** What the browsers say when a screen's code is gone from the server (a new version was installed). */
const STALE_CODE = /dynamically imported module|Importing a module script failed|Loading chunk .* failed|Unable to preload CSS/i;

export const isStaleCode = (error: unknown) => error instanceof Error && STALE_CODE.test(error.message);

/**
 * A screen that could not be shown (decision 052), inside the app's frame, in words: after a new version was
 * installed an open tab asks for screen code that is no longer there, which a reload fixes; anything else is
 * named without internals, with the way home. React Router's own page ("Hey developer") is never shown to staff.
 */
export function RouteError() {
  const error = useRouteError();
  const stale = isStaleCode(error);
  return (
    <Stack gap="sm" maw={640}>
      <Title order={1} size="h3">
        {stale ? 'A new version of the app is installed' : 'This screen could not be shown'}
      </Title>
      <Alert color={stale ? 'blue' : 'red'} variant="light" role="alert">
        <Text size="sm">
          {stale
            ? 'The app was updated since this tab was opened. Reload the page to work with the new version; nothing saved is lost.'
            : 'Something went wrong while showing this screen. Reload the page; if it happens again, tell the developers what you did.'}
        </Text>
      </Alert>
      <Group gap="sm">
        <Button onClick={() => window.location.reload()}>Reload</Button>
        <Anchor component={Link} to="/">
          Go to the home screen
        </Anchor>
      </Group>
    </Stack>
  );
}
