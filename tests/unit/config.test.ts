import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, parseConfig, parseSiteSettings } from '../../shared/core/config.ts';

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

/** Every variable the site's build reads, set to something other than its default. */
const SITE_ENV = {
  PORT: '4100',
  PUBLIC_BASE_URL: 'https://book.example.in/',
  SUPPORT_PHONE: '+91 22 4000 1234',
  SUPPORT_EMAIL: 'hello@example.in',
  CENTRE_NAME: 'Quiet Harbour Centre',
  CHANGE_NOTICE_HOURS: '48',
  MAX_RESCHEDULES: '1',
  SOCIAL_INSTAGRAM_URL: 'https://instagram.com/quiet-harbour',
  SOCIAL_FACEBOOK_URL: '',
  SOCIAL_LINKEDIN_URL: '',
  SOCIAL_YOUTUBE_URL: 'https://youtube.com/@quiet-harbour',
};
const UNSET = Object.fromEntries(Object.keys(SITE_ENV).map((k) => [k, '']));

/** What the site's pages show, from site-config.ts as the build imports it under `env`. */
async function siteUnder(env: Record<string, string>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  const { siteConfig, changePolicy } = await import('../../site/src/lib/site-config.ts');
  return {
    publicBaseUrl: siteConfig.baseUrl,
    supportPhone: siteConfig.supportPhone,
    supportEmail: siteConfig.supportEmail,
    centreName: siteConfig.centreName,
    changeNoticeHours: changePolicy.noticeHours,
    maxReschedules: changePolicy.maxReschedules,
  };
}

const serverSide = (env: Record<string, string>) => {
  const c = parseConfig(env);
  return {
    publicBaseUrl: c.publicBaseUrl,
    supportPhone: c.supportPhone,
    supportEmail: c.supportEmail,
    centreName: c.centreName,
    changeNoticeHours: c.changeNoticeHours,
    maxReschedules: c.maxReschedules,
  };
};

describe("the site's build configuration", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('reads the same defaults as the server from an empty environment', async () => {
    const site = await siteUnder(UNSET);
    expect(site).toEqual(serverSide({}));
    expect(site).toMatchObject({ publicBaseUrl: 'http://localhost:3000', supportPhone: '+91 98200 00000', changeNoticeHours: 24, maxReschedules: 2 });
    expect(parseSiteSettings({}).social).toEqual([]);
  });

  it('reads the same values as the server from one environment', async () => {
    const site = await siteUnder(SITE_ENV);
    expect(site).toEqual(serverSide(SITE_ENV));
    expect(site).toMatchObject({ publicBaseUrl: 'https://book.example.in', centreName: 'Quiet Harbour Centre', changeNoticeHours: 48 });
    const { siteConfig } = await import('../../site/src/lib/site-config.ts');
    expect(siteConfig.social).toEqual([
      { label: 'Instagram', href: 'https://instagram.com/quiet-harbour' },
      { label: 'YouTube', href: 'https://youtube.com/@quiet-harbour' },
    ]);
  });

  it('stops the build on a value the server would refuse, naming it', async () => {
    await expect(siteUnder({ ...UNSET, SUPPORT_EMAIL: 'nope', CHANGE_NOTICE_HOURS: '1000' })).rejects.toThrow(
      /SUPPORT_EMAIL must be an e-mail address.*CHANGE_NOTICE_HOURS/,
    );
    expect(() => parseConfig({ SUPPORT_EMAIL: 'nope' })).toThrow(/SUPPORT_EMAIL must be an e-mail address/);
    expect(() => parseSiteSettings({ SOCIAL_FACEBOOK_URL: 'http://facebook.com/x' })).toThrow(ConfigError);
    expect(() => parseConfig({ SOCIAL_FACEBOOK_URL: 'http://facebook.com/x' })).toThrow(/SOCIAL_FACEBOOK_URL must be an https:\/\/ address/);
  });

  it("needs none of the server's production secrets", () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(parseSiteSettings({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://book.example.in' }).publicBaseUrl).toBe('https://book.example.in');
  });
});
