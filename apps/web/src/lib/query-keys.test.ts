import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys, refreshAfterWrite } from './query-keys';

describe('refreshAfterWrite', () => {
  it('loads the written resource’s shown lists and choice checksums again and marks every other resource query stale', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
    const calls: string[] = [];
    const watch = (key: readonly unknown[]) => {
      const observer = new QueryObserver(client, {
        queryKey: key,
        queryFn: () => {
          calls.push(JSON.stringify(key));
          return calls.length;
        },
      });
      return observer.subscribe(() => undefined);
    };
    const contractList = queryKeys.list('contract', { page: 1 });
    const studentDetail = queryKeys.detail('student', 7);
    const studentsChecksum = queryKeys.choiceChecksum('students');
    const studentsChoices = queryKeys.choices('students', undefined, 'abc');
    const unwatchList = watch(contractList);
    const unwatchStudent = watch(studentDetail);
    const unwatchChecksum = watch(studentsChecksum);
    const unwatchChoices = watch(studentsChoices);
    await client.refetchQueries();
    unwatchStudent();
    calls.length = 0;

    await refreshAfterWrite(client, 'contract');

    // The shown checksum is asked again (a new student is offered at once); the list waits for its change.
    expect(calls).toEqual([JSON.stringify(contractList), JSON.stringify(studentsChecksum)]);
    expect(client.getQueryState(studentDetail)?.isInvalidated).toBe(true);
    expect(client.getQueryState(contractList)?.isInvalidated).toBe(false);
    expect(client.getQueryState(studentsChoices)?.isInvalidated).toBe(false);
    unwatchList();
    unwatchChecksum();
    unwatchChoices();
  });
});
