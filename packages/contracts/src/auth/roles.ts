/** The four roles (spec §1, §6), seeded with these ids. */
export const ROLES = [
  { id: 1, name: 'Developer' },
  { id: 2, name: 'Administrator' },
  { id: 3, name: 'User' },
  { id: 4, name: 'Reader' },
] as const;

export type RoleName = (typeof ROLES)[number]['name'];
export const ROLE_IDS = { Developer: 1, Administrator: 2, User: 3, Reader: 4 } as const satisfies Record<RoleName, number>;

/** Permission levels, from most to least privileged (spec §6). */
export type Level = 'developer' | 'administrator' | 'user' | 'reader';

const levelRank: Record<Level, number> = { developer: 4, administrator: 3, user: 2, reader: 1 };
const roleRank: Record<RoleName, number> = { Developer: 4, Administrator: 3, User: 2, Reader: 1 };

export function isRoleName(name: string): name is RoleName {
  return name in roleRank;
}

/** Whether a user with this role may use something that needs `level`. */
export function roleHasLevel(role: string | null | undefined, level: Level): boolean {
  if (!role || !isRoleName(role)) return false;
  return roleRank[role] >= levelRank[level];
}
