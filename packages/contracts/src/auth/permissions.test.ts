import { describe, expect, it } from 'vitest';
import { apiPermissions, uiPermissions } from './permissions.js';
import { roleHasLevel } from './roles.js';

describe('roleHasLevel', () => {
  it('orders the roles Developer > Administrator > User > Reader', () => {
    expect(roleHasLevel('Developer', 'developer')).toBe(true);
    expect(roleHasLevel('Administrator', 'developer')).toBe(false);
    expect(roleHasLevel('Administrator', 'administrator')).toBe(true);
    expect(roleHasLevel('User', 'administrator')).toBe(false);
    expect(roleHasLevel('User', 'user')).toBe(true);
    expect(roleHasLevel('Reader', 'user')).toBe(false);
    expect(roleHasLevel('Reader', 'reader')).toBe(true);
  });

  it('grants nothing to an unknown or missing role', () => {
    expect(roleHasLevel('Root', 'reader')).toBe(false);
    expect(roleHasLevel(undefined, 'reader')).toBe(false);
  });
});

describe('permission table', () => {
  it('lets everyone read countries but only administrators change them', () => {
    expect(apiPermissions['GET /countries']).toBe('reader');
    expect(apiPermissions['GET /countries/:id']).toBe('reader');
    expect(apiPermissions['GET /countries/choice']).toBe('reader');
    expect(apiPermissions['POST /countries']).toBe('administrator');
    expect(apiPermissions['PUT /countries/:id']).toBe('administrator');
    expect(apiPermissions['DELETE /countries/:id']).toBe('administrator');
  });

  it('leaves only login public', () => {
    const publicRoutes = Object.entries(apiPermissions).filter(([, level]) => level === 'public').map(([route]) => route);
    expect(publicRoutes).toEqual(['POST /auth/login']);
  });

  it('gates the Manage menu and /config to administrators, the e-mail tab to developers', () => {
    expect(uiPermissions['menu.manage']).toBe('administrator');
    expect(uiPermissions['route.config']).toBe('administrator');
    expect(uiPermissions['config.email']).toBe('developer');
  });
});
