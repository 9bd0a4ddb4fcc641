import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { signAdminToken, verifyAdminToken } from '../../shared/core/services/auth.service.ts';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const now = new Date('2026-11-27T10:00:00Z');

describe('admin tokens', () => {
  it('are the HS256 tokens of the secret string: one signed before the key was kept verifies, and ours verify as the string', () => {
    const iat = Math.floor(now.getTime() / 1000);
    const before = jwt.sign({ sub: '7', iat, sv: 2 }, SECRET, {
      algorithm: 'HS256',
      expiresIn: 3600,
      issuer: 'wellbeing-booking',
      audience: 'admin',
      jwtid: 'abcdefghijklmnop',
    });
    const claims = verifyAdminToken(before, SECRET, now);
    expect(claims).toMatchObject({ adminId: 7, sessionVersion: 2, jti: 'abcdefghijklmnop' });
    const ours = signAdminToken({ id: 7, sessionVersion: 2 }, SECRET, 3600, now);
    expect(jwt.verify(ours, SECRET, { algorithms: ['HS256'], clockTimestamp: Math.floor(now.getTime() / 1000) })).toMatchObject({ sub: '7', sv: 2 });
    expect(verifyAdminToken(ours, SECRET, now)).toMatchObject({ adminId: 7, sessionVersion: 2 });
    expect(verifyAdminToken(ours, `${SECRET}-other`, now)).toBeUndefined();
  });
});
