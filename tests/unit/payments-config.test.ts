import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { type ConfigError, parseConfig } from '../../shared/core/config.ts';

const prod = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), PUBLIC_BASE_URL: 'https://booking.example.in' };
const keys = { RAZORPAY_KEY_ID: 'rzp_live_abc', RAZORPAY_KEY_SECRET: 'secret', RAZORPAY_WEBHOOK_SECRET: 'whsecret' };

const problemsOf = (env: Record<string, string>) => {
  try {
    parseConfig(env);
    return [];
  } catch (err) {
    return (err as ConfigError).problems;
  }
};

describe('payments configuration', () => {
  it('uses the sandbox when no Razorpay keys are configured, and Razorpay when they are', () => {
    expect(parseConfig({}).payments.provider).toBe('sandbox');
    expect(parseConfig(keys).payments).toEqual({ provider: 'razorpay', keyId: 'rzp_live_abc', keySecret: 'secret', webhookSecret: 'whsecret' });
    expect(parseConfig({ ...keys, PAYMENTS_PROVIDER: 'sandbox' }).payments.provider).toBe('sandbox');
  });

  it('needs the webhook secret with Razorpay', () => {
    expect(problemsOf({ RAZORPAY_KEY_ID: 'a', RAZORPAY_KEY_SECRET: 'b' })).toEqual(['RAZORPAY_WEBHOOK_SECRET is required when PAYMENTS_PROVIDER is razorpay']);
  });

  it('refuses the sandbox in production unless it is both chosen and explicitly allowed', () => {
    expect(problemsOf(prod).join()).toMatch(/PAYMENTS_PROVIDER sandbox payments need/);
    expect(problemsOf({ ...prod, PAYMENTS_PROVIDER: 'sandbox' }).join()).toMatch(/PAYMENTS_PROVIDER sandbox payments need/);
    expect(problemsOf({ ...prod, ALLOW_SANDBOX_IN_PRODUCTION: 'true' }).join()).toMatch(/PAYMENTS_PROVIDER sandbox payments need/);
    expect(problemsOf({ ...prod, PAYMENTS_PROVIDER: 'sandbox', ALLOW_SANDBOX_IN_PRODUCTION: 'true' })).toEqual(['SANDBOX_SECRET is required in production']);
    const allowed = parseConfig({ ...prod, PAYMENTS_PROVIDER: 'sandbox', ALLOW_SANDBOX_IN_PRODUCTION: 'true', SANDBOX_SECRET: 's'.repeat(32) });
    expect(allowed.payments).toEqual({ provider: 'sandbox', secret: 's'.repeat(32), webhookUrl: 'https://booking.example.in/api/payment/webhook' });
    expect(parseConfig({ SANDBOX_WEBHOOK_URL: 'http://api:3000/api/payment/webhook' }).payments).toMatchObject({
      webhookUrl: 'http://api:3000/api/payment/webhook',
    });
    expect(parseConfig({ ...prod, ...keys }).payments.provider).toBe('razorpay');
  });

  it('reads the hold, meetings, mail and queue settings', () => {
    const c = parseConfig({ PAYMENT_HOLD_MINUTES: '30', JITSI_DOMAIN: 'jitsi.example.in', SMTP_HOST: 'smtp.example.in', SMTP_PORT: '465', QUEUE_PREFIX: 'wb' });
    expect(c.paymentHoldMinutes).toBe(30);
    expect(c.meetings).toEqual({ provider: 'jitsi', domain: 'jitsi.example.in' });
    expect(c.mail.smtp).toEqual({ host: 'smtp.example.in', port: 465, user: undefined, pass: undefined });
    expect(c.queuePrefix).toBe('wb');
    expect(parseConfig({}).mail).toMatchObject({ smtp: undefined, outboxDir: 'var/mail-outbox' });
    expect(parseConfig({}).paymentHoldMinutes).toBe(20);
    expect(problemsOf({ MEETINGS_PROVIDER: 'google' })).toHaveLength(3);
  });

  it('loads the Razorpay SDK (and its axios) only when Razorpay is the provider', () => {
    // In a process of its own: the test runner's module cache may hold the SDK from other tests.
    const script = `
      import { createRequire } from 'node:module';
      const { paymentsFromConfig } = await import('./shared/core/providers/payments/payments.factory.ts');
      const { parseConfig } = await import('./shared/core/config.ts');
      const cache = createRequire(import.meta.url).cache;
      const loaded = () => Object.keys(cache).some((file) => file.includes('/node_modules/razorpay/'));
      const sandbox = paymentsFromConfig(parseConfig({}), {}, () => new Date());
      const before = loaded();
      const razorpay = paymentsFromConfig(parseConfig(${JSON.stringify(keys)}), {}, () => new Date());
      console.log(JSON.stringify([sandbox.name, before, razorpay.name, loaded()]));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(['sandbox', false, 'razorpay', true]);
  });
});
