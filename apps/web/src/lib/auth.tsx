import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { roleHasLevel, type Access, type Level, type SessionUser } from '@app/contracts';
import { api, onUnauthorized, setShownUser } from './api-client';
import { setOfficeTimeZone } from './format';

export type AuthState =
  | { status: 'loading'; user: null }
  | { status: 'anonymous'; user: null }
  | { status: 'authenticated'; user: SessionUser };

export interface AuthContextValue {
  state: AuthState;
  user: SessionUser | null;
  /** Throws the ApiError of a failed login (401 wrong credentials, 429 too many attempts). */
  login: (username: string, password: string) => Promise<SessionUser>;
  logout: () => Promise<void>;
  /** Whether the logged-in user's role reaches `level` (spec §6). */
  hasLevel: (level: Level) => boolean;
  /** Whether the user may make a call of the permission table (`apiPermissions['POST /contracts/bulk_edit']`). */
  mayCall: (access: Access | undefined) => boolean;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** What `GET /auth/me` and `POST /auth/login` answer of a session: the user, and the office's time zone. */
interface SessionAnswer {
  user: SessionUser;
  timezone?: string;
}

/**
 * A session begins on screen: every time is shown on the office's clock, and every call from now on says whom
 * this page shows (decision 060), both set before the user's screens draw and call.
 */
function sessionState({ user, timezone }: SessionAnswer): AuthState {
  setOfficeTimeZone(timezone);
  setShownUser(user.id);
  return { status: 'authenticated', user };
}

const LOADING: AuthState = { status: 'loading', user: null };
const ANONYMOUS: AuthState = { status: 'anonymous', user: null };

/**
 * The session lives in an HttpOnly cookie; the web only asks who it belongs to (`GET /auth/me`) on load, so a
 * reload keeps the user logged in. Any 401 from any call ends the session here, and the route guards then
 * send the visitor to /login.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>(LOADING);

  const endSession = useCallback(() => {
    setShownUser(undefined);
    queryClient.clear();
    // Overview filters are remembered for the session (spec §2); the next user starts fresh.
    sessionStorage.clear();
    setState(ANONYMOUS);
  }, [queryClient]);

  useEffect(() => onUnauthorized(endSession), [endSession]);

  useEffect(() => {
    let cancelled = false;
    // Whoever the session belongs to is what this asks: no user is shown yet.
    setShownUser(undefined);
    api
      .get<SessionAnswer>('/auth/me', { ignoreUnauthorized: true })
      .then((session) => {
        if (!cancelled) setState(sessionState(session));
      })
      .catch(() => {
        if (!cancelled) setState(ANONYMOUS);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const login = useCallback(
    async (username: string, password: string) => {
      const session = await api.post<SessionAnswer>('/auth/login', { username, password }, { ignoreUnauthorized: true });
      queryClient.clear();
      setState(sessionState(session));
      return session.user;
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    try {
      await api.post('/auth/logout', undefined, { ignoreUnauthorized: true });
    } catch {
      // Already logged out on the server (expired session); the client forgets the user either way.
    }
    endSession();
  }, [endSession]);

  const value = useMemo<AuthContextValue>(
    () => ({
      state,
      user: state.user,
      login,
      logout,
      hasLevel: (level: Level) => roleHasLevel(state.user?.userrole_name, level),
      mayCall: (access: Access | undefined) =>
        access === 'public' || (access !== undefined && roleHasLevel(state.user?.userrole_name, access)),
    }),
    [state, login, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth needs an <AuthProvider>');
  return value;
}

/** The logged-in user; only for screens behind the login guard. */
export function useSessionUser(): SessionUser {
  const { user } = useAuth();
  if (!user) throw new Error('useSessionUser needs a logged-in user');
  return user;
}
