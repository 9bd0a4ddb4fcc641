import { z } from 'zod';
import { DEFAULT_MANAGE_POLICY } from '../domain/manage.ts';

/** The centre's calendar lives in one time zone whatever the server's TZ says. */
export const TIME_ZONE = 'Asia/Kolkata' as const;

const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me-0123456789';
const DEV_SANDBOX_SECRET = 'dev-only-sandbox-payments-secret-0123456789';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === '1' || v === 'yes');

const databaseUrlSchema = z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).default('postgres://root@127.0.0.1:5432/booking');

/**
 * DATABASE_URL alone, for the commands that need nothing else (backup and restore run from cron or a
 * shell where the app's secrets are not set). Exits like config() on a bad value.
 */
export function databaseUrlOnly(env: Record<string, string | undefined> = process.env): string {
  const parsed = databaseUrlSchema.safeParse(env.DATABASE_URL || undefined);
  if (parsed.success) return parsed.data;
  process.stderr.write(`Invalid configuration: DATABASE_URL ${parsed.error.issues[0]?.message ?? 'is not valid'}\n`);
  process.exit(78);
}

const socialUrl = z.url({ protocol: /^https$/, error: 'must be an https:// address' }).optional();

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number({ error: 'must be a port number' }).int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: databaseUrlSchema,
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).default('redis://127.0.0.1:6379'),
    JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    JWT_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(8 * 3600),
    PUBLIC_BASE_URL: z.url({ error: 'must be an absolute URL' }).optional(),
    SUPPORT_PHONE: z.string().min(5).max(40).default('+91 98200 00000'),
    SUPPORT_EMAIL: z.email({ error: 'must be an e-mail address' }).default('care@wellbeingcentre.in'),
    CENTRE_NAME: z.string().min(1).max(120).default('Mindful Path Wellbeing Centre'),
    /** The centre's social pages in the site's footer (read by the site's build only). */
    SOCIAL_INSTAGRAM_URL: socialUrl,
    SOCIAL_FACEBOOK_URL: socialUrl,
    SOCIAL_LINKEDIN_URL: socialUrl,
    SOCIAL_YOUTUBE_URL: socialUrl,
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SEED_DEMO_DATA: bool.optional(),
    PAYMENTS_PROVIDER: z.enum(['razorpay', 'sandbox'], { error: 'must be razorpay or sandbox' }).optional(),
    ALLOW_SANDBOX_IN_PRODUCTION: bool.optional(),
    RAZORPAY_KEY_ID: z.string().min(1).optional(),
    RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
    RAZORPAY_WEBHOOK_SECRET: z.string().min(1).optional(),
    SANDBOX_WEBHOOK_URL: z.url({ error: 'must be an absolute URL' }).optional(),
    SANDBOX_SECRET: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
    PAYMENT_HOLD_MINUTES: z.coerce
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .default(20),
    PAYMENT_LINK_WAIT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    MEETINGS_PROVIDER: z.enum(['jitsi', 'google'], { error: 'must be jitsi or google' }).default('jitsi'),
    JITSI_DOMAIN: z
      .string()
      .regex(/^[A-Za-z0-9.-]+(:\d+)?$/, { error: 'must be a host name' })
      .default('meet.jit.si'),
    GOOGLE_SERVICE_ACCOUNT_EMAIL: z.email().optional(),
    GOOGLE_PRIVATE_KEY: z.string().min(1).optional(),
    GOOGLE_IMPERSONATE_USER: z.email().optional(),
    GOOGLE_CALENDAR_ID: z.string().min(1).default('primary'),
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    SMTP_HOST: z.string().min(1).optional(),
    SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    SMTP_USER: z.string().min(1).optional(),
    SMTP_PASS: z.string().min(1).optional(),
    MAIL_FROM: z.string().min(3).optional(),
    MAIL_OUTBOX_DIR: z.string().min(1).default('var/mail-outbox'),
    QUEUE_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/, { error: 'must be letters, digits, - or _' })
      .default('booking'),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(5),
    /** Turns GET /metrics on: answered only to `Authorization: Bearer <METRICS_TOKEN>`. */
    METRICS_TOKEN: z.string().min(24, { error: 'must be at least 24 characters' }).optional(),
    /** Where the worker answers its own GET /metrics (with METRICS_TOKEN); unset, it serves none. */
    WORKER_METRICS_PORT: z.coerce.number({ error: 'must be a port number' }).int().min(1).max(65535).optional(),
    /** A file the worker touches every 10 s while PostgreSQL and Redis answer it: its container's health check. */
    WORKER_HEALTH_FILE: z.string().min(1).optional(),
    WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
    WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
    RECONCILE_EVERY_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(5),
    RETENTION_DAYS: z.coerce.number({ error: 'must be a whole number of days' }).int().min(1, { error: 'must be at least 1 day' }).max(3650).default(30),
    AUTO_REFUND_STRAY_PAYMENTS: bool.optional(),
    HOLDS_PER_CLIENT: z.coerce.number({ error: 'must be a whole number (0 turns the limit off)' }).int().min(0).max(1000).default(2),
    HOLDS_PER_IP: z.coerce.number({ error: 'must be a whole number (0 turns the limit off)' }).int().min(0).max(100_000).default(10),
    /** How long a waitlist offer holds its freed slot for the client it went to (issue 34). */
    WAITLIST_OFFER_MINUTES: z.coerce
      .number({ error: 'must be a whole number of minutes' })
      .int()
      .min(5)
      .max(24 * 60)
      .default(30),
    CHANGE_NOTICE_HOURS: z.coerce
      .number({ error: 'must be a whole number of hours' })
      .int()
      .min(0)
      .max(24 * 30)
      .default(DEFAULT_MANAGE_POLICY.noticeHours),
    MAX_RESCHEDULES: z.coerce
      .number({ error: 'must be a whole number (0 turns rescheduling off)' })
      .int()
      .min(0)
      .max(20)
      .default(DEFAULT_MANAGE_POLICY.maxReschedules),
    WHATSAPP_TOKEN: z.string().min(1).optional(),
    WHATSAPP_PHONE_NUMBER_ID: z
      .string()
      .regex(/^\d{5,20}$/, { error: 'must be the digits of the phone number id' })
      .optional(),
    WHATSAPP_TEMPLATE_NAME: z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, { error: 'must be a template name (lower case, digits, _)' })
      .default('session_reminder'),
    WHATSAPP_TEMPLATE_LANGUAGE: z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: 'must be a language code such as en or en_US' })
      .default('en'),
    /** The second approved template (issue 31): a payment link sent from the panel (README, "WhatsApp"). */
    WHATSAPP_PAYMENT_LINK_TEMPLATE_NAME: z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, { error: 'must be a template name (lower case, digits, _)' })
      .default('payment_link'),
    WHATSAPP_PAYMENT_LINK_TEMPLATE_LANGUAGE: z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: 'must be a language code such as en or en_US' })
      .default('en'),
    /** The third approved template (issue 34): a waitlist offer (README, "WhatsApp"). */
    WHATSAPP_WAITLIST_TEMPLATE_NAME: z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, { error: 'must be a template name (lower case, digits, _)' })
      .default('waitlist_offer'),
    WHATSAPP_WAITLIST_TEMPLATE_LANGUAGE: z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, { error: 'must be a language code such as en or en_US' })
      .default('en'),
    WHATSAPP_APP_SECRET: z.string().min(1).optional(),
    WHATSAPP_VERIFY_TOKEN: z.string().min(8, { error: 'must be at least 8 characters' }).optional(),
    WHATSAPP_GRAPH_URL: z.url({ error: 'must be an absolute URL' }).default('https://graph.facebook.com'),
    // The newest Graph API version when this was written: v26.0, introduced 29 July 2026, per Meta's
    // changelog (developers.facebook.com/docs/graph-api/changelog, "Available Graph API versions").
    WHATSAPP_GRAPH_VERSION: z
      .string()
      .regex(/^v\d+\.\d+$/, { error: 'must look like v26.0' })
      .default('v26.0'),
    WHATSAPP_RETRY_DELAY_MS: z.coerce.number({ error: 'must be a whole number of milliseconds' }).int().min(10).max(3_600_000).default(60_000),
    TRUST_PROXY: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      )
      .pipe(
        z.array(
          z.string().regex(/^(loopback|linklocal|uniquelocal|[0-9A-Fa-f.:]+(\/\d{1,3})?)$/, {
            error: 'must list the proxy addresses (IPs or CIDR ranges, or loopback, linklocal, uniquelocal), comma-separated',
          }),
        ),
      )
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production') {
      if (!env.JWT_SECRET) ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required in production' });
      if (!env.PUBLIC_BASE_URL) ctx.addIssue({ code: 'custom', path: ['PUBLIC_BASE_URL'], message: 'is required in production' });
      if (paymentsProviderOf(env) === 'sandbox' && !(env.PAYMENTS_PROVIDER === 'sandbox' && env.ALLOW_SANDBOX_IN_PRODUCTION)) {
        ctx.addIssue({
          code: 'custom',
          path: ['PAYMENTS_PROVIDER'],
          message:
            'sandbox payments need PAYMENTS_PROVIDER=sandbox and ALLOW_SANDBOX_IN_PRODUCTION=true in production; set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET',
        });
      }
      if (paymentsProviderOf(env) === 'sandbox' && !env.SANDBOX_SECRET) {
        ctx.addIssue({ code: 'custom', path: ['SANDBOX_SECRET'], message: 'is required in production' });
      }
    }
    if (paymentsProviderOf(env) === 'razorpay') {
      for (const key of ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when PAYMENTS_PROVIDER is razorpay' });
      }
    }
    if (env.WHATSAPP_TOKEN || env.WHATSAPP_PHONE_NUMBER_ID) {
      for (const key of ['WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN'] as const) {
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'is required when WhatsApp reminders are configured (WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID)',
          });
      }
    }
    if (env.MEETINGS_PROVIDER === 'google') {
      for (const key of ['GOOGLE_SERVICE_ACCOUNT_EMAIL', 'GOOGLE_PRIVATE_KEY', 'GOOGLE_IMPERSONATE_USER'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when MEETINGS_PROVIDER is google' });
      }
    }
  });

function paymentsProviderOf(env: {
  PAYMENTS_PROVIDER?: 'razorpay' | 'sandbox' | undefined;
  RAZORPAY_KEY_ID?: string | undefined;
  RAZORPAY_KEY_SECRET?: string | undefined;
}) {
  return env.PAYMENTS_PROVIDER ?? (env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET ? 'razorpay' : 'sandbox');
}

export type PaymentsConfig =
  | { provider: 'razorpay'; keyId: string; keySecret: string; webhookSecret: string }
  /** webhookUrl: where the sandbox delivers its webhooks (the worker must reach it; defaults to PUBLIC_BASE_URL). */
  | { provider: 'sandbox'; secret: string; webhookUrl: string };

export type MeetingsConfig =
  | { provider: 'jitsi'; domain: string }
  | { provider: 'google'; serviceAccountEmail: string; privateKey: string; impersonateUser: string; calendarId: string };

/** Meta's WhatsApp Cloud API; undefined when not configured, and reminders go by e-mail only. */
export type WhatsAppConfig = {
  token: string;
  phoneNumberId: string;
  templateName: string;
  templateLanguage: string;
  /** The payment link's template (body: first name, therapist, date, time IST, amount, link). */
  paymentLinkTemplateName: string;
  paymentLinkTemplateLanguage: string;
  /** The waitlist offer's template (body: first name, therapist, date, time IST, held until; URL button: the waitlist link's token). */
  waitlistTemplateName: string;
  waitlistTemplateLanguage: string;
  /** The app secret Meta signs status webhooks with (X-Hub-Signature-256). */
  appSecret: string;
  /** What Meta must echo in hub.verify_token when the webhook is registered. */
  verifyToken: string;
  graphUrl: string;
  graphVersion: string;
  /** The first retry's wait after Meta could not take a message; each later one waits twice as long. */
  retryDelayMs: number;
};

export type MailConfig = {
  from: string;
  /** undefined: no SMTP configured, messages go to outboxDir as .eml files. */
  smtp: string | { host: string; port: number; user: string | undefined; pass: string | undefined } | undefined;
  outboxDir: string;
};

export type Config = Readonly<{
  nodeEnv: 'development' | 'test' | 'production';
  isProduction: boolean;
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string;
  jwtSecret: string;
  jwtTtlSeconds: number;
  publicBaseUrl: string;
  supportPhone: string;
  supportEmail: string;
  centreName: string;
  logLevel: string;
  seedDemoData: boolean;
  timeZone: typeof TIME_ZONE;
  payments: PaymentsConfig;
  paymentHoldMinutes: number;
  paymentLinkWaitMs: number;
  meetings: MeetingsConfig;
  mail: MailConfig;
  queuePrefix: string;
  worker: {
    concurrency: number;
    lockDurationMs: number;
    stalledIntervalMs: number;
    reconcileEveryMinutes: number;
    healthFile: string | undefined;
    metricsPort: number | undefined;
  };
  /** GET /metrics' bearer token; undefined: no metrics are served (and none are gathered). */
  metricsToken: string | undefined;
  /** Finished outbox rows and received webhook events older than this many days are deleted nightly. */
  retentionDays: number;
  /** A payment for a booking that cannot take it is refunded by the worker at once (else shown as a refund due). */
  autoRefundStrayPayments: boolean;
  /** Live unpaid online holds per client e-mail and per mobile, and new holds per address per 10 minutes; 0 is no limit. */
  holds: { perClient: number; perAddress: number };
  /** WAITLIST_OFFER_MINUTES: how long a freed slot is held for the waitlist client offered it. */
  waitlistOfferMinutes: number;
  /** The reverse proxies whose X-Forwarded-For is believed; empty trusts none, so the socket's address is the client's. */
  trustProxy: readonly string[];
  /** Clients may move or cancel a session themselves until this many hours before it starts. */
  changeNoticeHours: number;
  /** How many times a client may move one booking themselves. */
  maxReschedules: number;
  whatsapp: WhatsAppConfig | undefined;
}>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.problems = problems;
    this.name = 'ConfigError';
  }
}

/**
 * What the public site's build reads (site/src/lib/site-config.ts): the same variables, defaults and
 * checks as the server's, so the pages and the e-mails name one centre with one address.
 */
export type SiteSettings = Readonly<{
  publicBaseUrl: string;
  supportPhone: string;
  supportEmail: string;
  centreName: string;
  changeNoticeHours: number;
  maxReschedules: number;
  /** The social pages that are set, in the footer's order. */
  social: readonly SocialLink[];
}>;

export type SocialLink = Readonly<{ label: 'Instagram' | 'Facebook' | 'LinkedIn' | 'YouTube'; href: string }>;

// The same fields without the server's cross-checks: the site's build needs none of its secrets (and
// always runs for production).
const siteFields = z.object(schema.shape).pick({
  PORT: true,
  PUBLIC_BASE_URL: true,
  SUPPORT_PHONE: true,
  SUPPORT_EMAIL: true,
  CENTRE_NAME: true,
  CHANGE_NOTICE_HOURS: true,
  MAX_RESCHEDULES: true,
  SOCIAL_INSTAGRAM_URL: true,
  SOCIAL_FACEBOOK_URL: true,
  SOCIAL_LINKEDIN_URL: true,
  SOCIAL_YOUTUBE_URL: true,
});

function siteSettingsOf(e: z.output<typeof siteFields>): SiteSettings {
  const social = [
    ['Instagram', e.SOCIAL_INSTAGRAM_URL],
    ['Facebook', e.SOCIAL_FACEBOOK_URL],
    ['LinkedIn', e.SOCIAL_LINKEDIN_URL],
    ['YouTube', e.SOCIAL_YOUTUBE_URL],
  ] as const;
  return Object.freeze({
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    supportPhone: e.SUPPORT_PHONE,
    supportEmail: e.SUPPORT_EMAIL,
    centreName: e.CENTRE_NAME,
    changeNoticeHours: e.CHANGE_NOTICE_HOURS,
    maxReschedules: e.MAX_RESCHEDULES,
    social: social.flatMap(([label, href]) => (href ? [{ label, href }] : [])),
  });
}

/** An environment read through `schema`; throws one ConfigError naming every bad variable. */
function readEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.output<S> {
  // Empty strings mean "not set" (docker-compose passes them for unset ${VARS}).
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || 'env'} ${i.message}`);
    throw new ConfigError(problems);
  }
  return result.data;
}

/** The site's settings from an environment; throws one ConfigError naming every bad variable it reads. */
export function parseSiteSettings(env: Record<string, string | undefined>): SiteSettings {
  return siteSettingsOf(readEnv(siteFields, env));
}

/** Parses an environment; throws one ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const e = readEnv(schema, env);
  const site = siteSettingsOf(e);
  const isProduction = e.NODE_ENV === 'production';
  return Object.freeze({
    nodeEnv: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    jwtSecret: e.JWT_SECRET ?? DEV_JWT_SECRET,
    jwtTtlSeconds: e.JWT_TTL_SECONDS,
    publicBaseUrl: site.publicBaseUrl,
    supportPhone: site.supportPhone,
    supportEmail: site.supportEmail,
    centreName: site.centreName,
    logLevel: e.LOG_LEVEL,
    seedDemoData: isProduction ? false : (e.SEED_DEMO_DATA ?? true),
    timeZone: TIME_ZONE,
    payments:
      paymentsProviderOf(e) === 'razorpay'
        ? { provider: 'razorpay' as const, keyId: e.RAZORPAY_KEY_ID!, keySecret: e.RAZORPAY_KEY_SECRET!, webhookSecret: e.RAZORPAY_WEBHOOK_SECRET! }
        : {
            provider: 'sandbox' as const,
            secret: e.SANDBOX_SECRET ?? DEV_SANDBOX_SECRET,
            webhookUrl: e.SANDBOX_WEBHOOK_URL ?? `${site.publicBaseUrl}/api/payment/webhook`,
          },
    paymentHoldMinutes: e.PAYMENT_HOLD_MINUTES,
    paymentLinkWaitMs: e.PAYMENT_LINK_WAIT_MS,
    meetings:
      e.MEETINGS_PROVIDER === 'google'
        ? {
            provider: 'google' as const,
            serviceAccountEmail: e.GOOGLE_SERVICE_ACCOUNT_EMAIL!,
            // Env files usually carry the PEM with literal \n sequences.
            privateKey: e.GOOGLE_PRIVATE_KEY!.replace(/\\n/g, '\n'),
            impersonateUser: e.GOOGLE_IMPERSONATE_USER!,
            calendarId: e.GOOGLE_CALENDAR_ID,
          }
        : { provider: 'jitsi' as const, domain: e.JITSI_DOMAIN },
    mail: {
      from: e.MAIL_FROM ?? `${e.CENTRE_NAME} <${e.SUPPORT_EMAIL}>`,
      smtp: e.SMTP_URL ?? (e.SMTP_HOST ? { host: e.SMTP_HOST, port: e.SMTP_PORT ?? 587, user: e.SMTP_USER, pass: e.SMTP_PASS } : undefined),
      outboxDir: e.MAIL_OUTBOX_DIR,
    },
    queuePrefix: e.QUEUE_PREFIX,
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      healthFile: e.WORKER_HEALTH_FILE,
      metricsPort: e.WORKER_METRICS_PORT,
      lockDurationMs: e.WORKER_LOCK_DURATION_MS,
      stalledIntervalMs: e.WORKER_STALLED_INTERVAL_MS,
      reconcileEveryMinutes: e.RECONCILE_EVERY_MINUTES,
    },
    metricsToken: e.METRICS_TOKEN,
    retentionDays: e.RETENTION_DAYS,
    autoRefundStrayPayments: e.AUTO_REFUND_STRAY_PAYMENTS ?? true,
    holds: { perClient: e.HOLDS_PER_CLIENT, perAddress: e.HOLDS_PER_IP },
    waitlistOfferMinutes: e.WAITLIST_OFFER_MINUTES,
    trustProxy: Object.freeze(e.TRUST_PROXY ?? []),
    changeNoticeHours: site.changeNoticeHours,
    maxReschedules: site.maxReschedules,
    whatsapp:
      e.WHATSAPP_TOKEN && e.WHATSAPP_PHONE_NUMBER_ID
        ? {
            token: e.WHATSAPP_TOKEN,
            phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
            templateName: e.WHATSAPP_TEMPLATE_NAME,
            templateLanguage: e.WHATSAPP_TEMPLATE_LANGUAGE,
            paymentLinkTemplateName: e.WHATSAPP_PAYMENT_LINK_TEMPLATE_NAME,
            paymentLinkTemplateLanguage: e.WHATSAPP_PAYMENT_LINK_TEMPLATE_LANGUAGE,
            waitlistTemplateName: e.WHATSAPP_WAITLIST_TEMPLATE_NAME,
            waitlistTemplateLanguage: e.WHATSAPP_WAITLIST_TEMPLATE_LANGUAGE,
            appSecret: e.WHATSAPP_APP_SECRET!,
            verifyToken: e.WHATSAPP_VERIFY_TOKEN!,
            graphUrl: e.WHATSAPP_GRAPH_URL.replace(/\/+$/, ''),
            graphVersion: e.WHATSAPP_GRAPH_VERSION,
            retryDelayMs: e.WHATSAPP_RETRY_DELAY_MS,
          }
        : undefined,
  });
}

let cached: Config | undefined;

/** The process configuration, parsed once; a bad environment stops the process with one clear message. */
export function config(): Config {
  if (!cached) {
    try {
      cached = parseConfig(process.env);
    } catch (err) {
      if (err instanceof ConfigError) {
        process.stderr.write(`${err.message}\n`);
        process.exit(78); // EX_CONFIG
      }
      throw err;
    }
  }
  return cached;
}

/** Every environment variable the configuration reads (the README documents each; docker-compose.yml passes each on). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);
