import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { roleHasLevel, type Access, type Level, type SessionUser } from '@app/contracts';
import { api, onUnauthorized, setShownUser } from './api-client';
import { setOfficeTimeZone } from './format';
import { hasUnsavedChanges } from './unsaved-changes';

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
  /**
   * The session ended (a 401) while a screen held unsaved changes: the screen stays, with its changes, and a
   * dialog asks for the password to go on (decision 061).
   */
  sessionEnded: boolean;
  /** Logs the same user in again after `sessionEnded`; throws the ApiError of a failed login. */
  resumeSession: (password: string) => Promise<void>;
  /** Gives up the screen's changes after `sessionEnded`: the login screen follows. */
  discardSession: () => void;
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
 * send the visitor to /login; but while a screen holds unsaved changes, the screen stays and the user is asked
 * to log in again over it (`sessionEnded`), so that nothing typed is lost to an expired session.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>(LOADING);
  const [sessionEnded, setSessionEnded] = useState(false);
  const stateRef = useRef(state);
  useLayoutEffect(() => {
    stateRef.current = state;
  }, [state]);

  const endSession = useCallback(() => {
    setShownUser(undefined);
    queryClient.clear();
    // Overview filters are remembered for the session (spec §2); the next user starts fresh.
    sessionStorage.clear();
    setSessionEnded(false);
    setState(ANONYMOUS);
  }, [queryClient]);

  useEffect(
    () =>
      onUnauthorized(() => {
        if (stateRef.current.status === 'authenticated' && hasUnsavedChanges()) setSessionEnded(true);
        else endSession();
      }),
    [endSession],
  );

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

  const resumeSession = useCallback(
    async (password: string) => {
      const shown = stateRef.current.user;
      if (!shown) return;
      const session = await api.post<SessionAnswer>('/auth/login', { username: shown.usr_login_name, password }, { ignoreUnauthorized: true });
      if (session.user.id !== shown.id) {
        // The login name now belongs to someone else (renamed meanwhile): this page is not theirs.
        endSession();
        return;
      }
      // The role may have changed meanwhile: the new session's user is shown.
      setState(sessionState(session));
      setSessionEnded(false);
      // What failed for want of a session is asked again; the screen's own record and changes stay as they are.
      void queryClient.invalidateQueries({ predicate: (query) => query.state.status === 'error' });
    },
    [endSession, queryClient],
  );

  const value = useMemo<AuthContextValue>(
    () => ({
      state,
      user: state.user,
      login,
      logout,
      sessionEnded,
      resumeSession,
      discardSession: endSession,
      hasLevel: (level: Level) => roleHasLevel(state.user?.userrole_name, level),
      mayCall: (access: Access | undefined) =>
        access === 'public' || (access !== undefined && roleHasLevel(state.user?.userrole_name, access)),
    }),
    [state, login, logout, sessionEnded, resumeSession, endSession],
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
