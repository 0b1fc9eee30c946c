import { describe, expect, it } from 'vitest';
import { UserCreateSchema } from './user.js';

describe('user login name', () => {
  it('says that only letters without accents are taken, so "josé" is not read as a wrong letter (decision 060)', () => {
    const field = UserCreateSchema.shape.usr_login_name;
    expect(field.safeParse('jose.garcia@office').success).toBe(true);
    expect(field.safeParse('josé').error?.issues.map((i) => i.message)).toEqual(['Login may hold the letters a–z and A–Z (no accents), digits and . _ @ - only']);
  });
});
