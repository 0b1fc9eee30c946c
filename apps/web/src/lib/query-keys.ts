import type { QueryClient } from '@tanstack/react-query';
import type { QueryValue } from './api-client';

/**
 * Every TanStack Query key of the web, so invalidation never guesses. A resource's lists and details share the
 * prefix `['resource', key]`: invalidating it after a save or delete refreshes every overview of the resource.
 */
export const queryKeys = {
  resource: (resourceKey: string) => ['resource', resourceKey] as const,
  lists: (resourceKey: string) => ['resource', resourceKey, 'list'] as const,
  list: (resourceKey: string, params: Record<string, unknown>) => ['resource', resourceKey, 'list', params] as const,
  detail: (resourceKey: string, id: string | number) => ['resource', resourceKey, 'detail', String(id)] as const,
  /**
   * The outbox rows concerning one record. Kept under the record resource's lists, so an action on the record
   * (which may queue a mail) loads them again like its lists.
   */
  recordMails: (resourceKey: string, id: string | number) => ['resource', resourceKey, 'list', 'mails', String(id)] as const,
  choiceChecksum: (name: string, params?: Record<string, unknown>) => ['choices', name, 'checksum', params ?? {}] as const,
  choices: (name: string, params: Record<string, unknown> | undefined, checksum: string) =>
    ['choices', name, 'list', params ?? {}, checksum] as const,
  /** A list searched on the server: the matches of a text, and the choice a form holds. */
  choiceSearch: (name: string, term: string, held: number | undefined, params?: Record<string, QueryValue>) =>
    ['choices', name, 'search', term, held ?? null, params ?? {}] as const,
  /** `GET /config`: the version and the template list of the Configuration screen. */
  config: ['config'] as const,
};

/**
 * After a write: the written resource's lists load again now, and every other resource query is marked stale so
 * it loads again when next shown. A write changes what other resources show as well (joined names, a student's
 * active contract, a contract's number of documents). Choice list checksums are asked again too, so a
 * record just created is offered in the selects; a list itself loads again only if its checksum changed (a list
 * searched on the server is asked again).
 */
export async function refreshAfterWrite(queryClient: QueryClient, resourceKey: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ['resource'], refetchType: 'none' }),
    queryClient.invalidateQueries({ queryKey: queryKeys.lists(resourceKey) }),
    queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'choices' && (q.queryKey[2] === 'checksum' || q.queryKey[2] === 'search') }),
  ]);
}
