import { Link } from 'react-router';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useAuth, useSessionUser } from '../lib/auth';
import { NeedsAttention } from './attention';
import { logEventsEntry, menus } from './screens';

/** The simple home screen: a welcome, the work waiting (decision 048) and the menus as quick links. */
export function HomePage() {
  const user = useSessionUser();
  const { hasLevel } = useAuth();
  const visible = menus.filter((g) => !g.level || hasLevel(g.level));
  const hasLogEvents = visible.some((g) => g.entries.some((e) => e.path === logEventsEntry.path));
  const groups = hasLogEvents ? visible : [...visible, { label: 'Log', entries: [logEventsEntry] }];
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h3">
          Welcome, {user.usr_first_name || user.usr_name}
        </Title>
        <Text c="dimmed" size="sm">
          Scholarship contracts, invoices and payments in one place.
        </Text>
      </div>
      <NeedsAttention />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        {groups.map((g) => (
          <Card key={g.label} withBorder padding="md" radius="sm">
            {/* A heading each: a screen reader moves between the home screen's groups by them. */}
            <Title order={2} size="sm" fw={600} mb="xs">
              {g.label}
            </Title>
            <Stack gap={4}>
              {g.entries
                .filter((e) => !e.level || hasLevel(e.level))
                .map((e) => (
                  <Anchor key={e.path} component={Link} to={e.path} size="sm">
                    {e.label}
                  </Anchor>
                ))}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** A screen of the spec that a later issue builds. */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <Stack gap="xs">
      <Title order={1} size="h3">
        {title}
      </Title>
      <Text c="dimmed">Coming soon.</Text>
    </Stack>
  );
}

export function NotFoundPage() {
  return (
    <Stack gap="xs">
      <Title order={1} size="h3">
        Page not found
      </Title>
      <Group gap={4}>
        <Text c="dimmed">There is no screen at this address.</Text>
        <Anchor component={Link} to="/">
          Go to the home screen
        </Anchor>
      </Group>
    </Stack>
  );
}
