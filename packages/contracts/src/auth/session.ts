import { z } from 'zod';

export const LoginSchema = z.object({
  username: z.string({ error: 'username is required' }).trim().min(1, 'username is required').max(100),
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(1000),
});
export type Login = z.infer<typeof LoginSchema>;

/** The logged-in user as `GET /auth/me` and `POST /auth/login` answer it. */
export const SessionUserSchema = z.object({
  id: z.number().int(),
  usr_login_name: z.string(),
  usr_name: z.string(),
  usr_first_name: z.string(),
  usr_last_name: z.string(),
  usr_role_id: z.number().int(),
  userrole_name: z.string(),
  usr_active: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** Passwords shorter than this are refused (OWASP ASVS 2.1.1 asks for 12). */
export const MIN_PASSWORD_LENGTH = 12;
