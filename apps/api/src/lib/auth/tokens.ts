import jwt from 'jsonwebtoken';

export interface TokenClaims {
  /** user id */
  sub: string;
  /** session id (a row of `sessions`) */
  sid: string;
}

export function signToken(secret: string, claims: TokenClaims, expiresInSeconds: number): string {
  return jwt.sign({ sid: claims.sid }, secret, {
    algorithm: 'HS256',
    subject: claims.sub,
    expiresIn: expiresInSeconds,
  });
}

/** The claims of a valid token, or null. Only HS256 is accepted: `alg: none` and key confusion fail. */
export function verifyToken(secret: string, token: string): TokenClaims | null {
  try {
    const payload = jwt.verify(token, secret, { algorithms: ['HS256'] });
    if (typeof payload !== 'object' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
    return { sub: payload.sub, sid: payload.sid };
  } catch {
    return null;
  }
}
