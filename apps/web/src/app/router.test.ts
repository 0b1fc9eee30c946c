import { describe, expect, it } from 'vitest';
import { resourceUis } from '../resources/registry';
import { screenPaths, screenResources } from '../resources/screens';

describe('the route table', () => {
  it('knows every resource screen of the registry by path, without loading the screens', () => {
    expect(screenResources.map((r) => r.key).sort()).toEqual(resourceUis.map((r) => r.descriptor.key).sort());
    const paths = new Set(screenPaths());
    for (const route of resourceUis.flatMap((r) => r.routes)) expect(paths.has(route.path!), route.path).toBe(true);
  });
});
