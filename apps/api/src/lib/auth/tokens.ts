import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

/**
 * The secret as a key object, made once per secret: given a string, jsonwebtoken first tries to read it as a
 * public key and falls back, on every request (≈ 11 % of the server's CPU under load, issue 11).
 */
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

export interface TokenClaims {
  /** user id */
  sub: string;
  /** session id (a row of `sessions`) */
  sid: string;
}

export function signToken(secret: string, claims: TokenClaims, expiresInSeconds: number): string {
  return jwt.sign({ sid: claims.sid }, keyOf(secret), {
    algorithm: 'HS256',
    subject: claims.sub,
    expiresIn: expiresInSeconds,
  });
}

/**
 * The claims of a valid token, or null. Only HS256 is accepted: `alg: none` and key confusion fail. A token
 * must carry `exp` (jsonwebtoken accepts one without it): a token that never expires is refused even when signed.
 */
export function verifyToken(secret: string, token: string): TokenClaims | null {
  try {
    const payload = jwt.verify(token, keyOf(secret), { algorithms: ['HS256'] });
    if (typeof payload !== 'object' || typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') {
      return null;
    }
    return { sub: payload.sub, sid: payload.sid };
  } catch {
    return null;
  }
}
