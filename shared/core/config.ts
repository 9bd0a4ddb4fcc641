import { z } from 'zod';

/** The centre's calendar lives in one time zone whatever the server's TZ says. */
export const TIME_ZONE = 'Asia/Kolkata' as const;

const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me-0123456789';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number({ error: 'must be a port number' }).int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATABASE_URL: z
      .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' })
      .default('postgres://root@127.0.0.1:5432/booking'),
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).default('redis://127.0.0.1:6379'),
    JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    JWT_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 24 * 3600).default(8 * 3600),
    PUBLIC_BASE_URL: z.url({ error: 'must be an absolute URL' }).optional(),
    SUPPORT_PHONE: z.string().min(5).max(40).default('+91 98200 00000'),
    SUPPORT_EMAIL: z.email({ error: 'must be an e-mail address' }).default('care@wellbeingcentre.in'),
    CENTRE_NAME: z.string().min(1).max(120).default('Mindful Path Wellbeing Centre'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    SEED_DEMO_DATA: bool.optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production') {
      if (!env.JWT_SECRET) ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required in production' });
      if (!env.PUBLIC_BASE_URL) ctx.addIssue({ code: 'custom', path: ['PUBLIC_BASE_URL'], message: 'is required in production' });
    }
  });

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
}>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.problems = problems;
    this.name = 'ConfigError';
  }
}

/** Parses an environment; throws one ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // Empty strings mean "not set" (docker-compose passes them for unset ${VARS}).
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || 'env'} ${i.message}`);
    throw new ConfigError(problems);
  }
  const e = result.data;
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
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    supportPhone: e.SUPPORT_PHONE,
    supportEmail: e.SUPPORT_EMAIL,
    centreName: e.CENTRE_NAME,
    logLevel: e.LOG_LEVEL,
    seedDemoData: isProduction ? false : (e.SEED_DEMO_DATA ?? true),
    timeZone: TIME_ZONE,
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
