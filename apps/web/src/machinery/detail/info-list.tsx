import type { ReactNode } from 'react';
import { Group, Paper, Text } from '@mantine/core';

export interface InfoItem {
  label: string;
  /** Shown as it is; empty values show a dash. */
  value: ReactNode;
}

/**
 * Read-only facts of a record that are not form fields (who requested bank info and when, links to related
 * records): a region named `label` holding a description list, so each value is announced with its label.
 */
export function InfoList({ items, label }: { items: readonly InfoItem[]; label: string }) {
  if (items.length === 0) return null;
  return (
    <Paper withBorder px="md" py="xs" radius="sm" component="section" aria-label={label}>
      <Group component="dl" gap="xl" wrap="wrap" align="flex-start" m={0}>
        {items.map((item) => (
          <div key={item.label}>
            <Text component="dt" size="xs" c="dimmed">
              {item.label}
            </Text>
            <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
              {item.value === null || item.value === undefined || item.value === '' ? '–' : item.value}
            </Text>
          </div>
        ))}
      </Group>
    </Paper>
  );
}
