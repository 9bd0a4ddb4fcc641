import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../shared/core/config.ts';

describe('configuration', () => {
  it('has working defaults for development', () => {
    const cfg = parseConfig({});
    expect(cfg).toMatchObject({
      port: 3000,
      databaseUrl: 'postgres://root@127.0.0.1:5432/booking',
      redisUrl: 'redis://127.0.0.1:6379',
      timeZone: 'Asia/Kolkata',
      seedDemoData: true,
      publicBaseUrl: 'http://localhost:3000',
    });
    expect(cfg.jwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('names every bad variable in one error', () => {
    try {
      parseConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SUPPORT_EMAIL: 'nope', REDIS_URL: 'http://x' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'SUPPORT_EMAIL', 'REDIS_URL']) expect(message).toContain(name);
    }
  });

  it('gives secrets no defaults in production', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET is required in production/);
    const cfg = parseConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      PUBLIC_BASE_URL: 'https://book.example.in/',
      RAZORPAY_KEY_ID: 'rzp_live_x',
      RAZORPAY_KEY_SECRET: 'secret',
      RAZORPAY_WEBHOOK_SECRET: 'whsecret',
    });
    expect(cfg.seedDemoData).toBe(false);
    expect(cfg.publicBaseUrl).toBe('https://book.example.in');
  });

  it('treats empty strings as unset', () => {
    expect(parseConfig({ PORT: '', JWT_SECRET: '' }).port).toBe(3000);
  });

  it('refuses a short JWT secret', () => {
    expect(() => parseConfig({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET must be at least 32 characters/);
  });

  it('keeps finished jobs and webhook events 30 days unless told, and never less than a day', () => {
    expect(parseConfig({}).retentionDays).toBe(30);
    expect(parseConfig({ RETENTION_DAYS: '7' }).retentionDays).toBe(7);
    expect(() => parseConfig({ RETENTION_DAYS: '0' })).toThrow(/RETENTION_DAYS must be at least 1 day/);
    expect(() => parseConfig({ RETENTION_DAYS: '1.5' })).toThrow(/RETENTION_DAYS/);
    expect(() => parseConfig({ RETENTION_DAYS: 'month' })).toThrow(/RETENTION_DAYS must be a whole number of days/);
  });
});
