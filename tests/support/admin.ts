import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { bookings } from '../../shared/core/db/schema.ts';
import type { Db } from '../../shared/core/db/client.ts';
import type { AdminUser } from '../../shared/core/repositories/admin.repository.ts';
import { createAdminUser, setAdminActive } from '../../shared/core/services/admin-user.service.ts';
import { signAdminToken } from '../../shared/core/services/auth.service.ts';
import type {
  CreatePaymentLinkInput,
  PaymentLink,
  PaymentsProvider,
  ProviderPayment,
  ProviderRefund,
  RefundInput,
} from '../../shared/core/providers/payments/payments.provider.ts';
import { testConfig } from './app.ts';

export const PASSWORD = 'correct horse battery staple';

export type Admins = { superadmin: AdminUser; admin: AdminUser; inactive: AdminUser };

/** One super admin, one admin and one deactivated admin; argon2 is slow, so once per file. */
export async function createAdmins(db: Db): Promise<Admins> {
  const [superadmin, admin, inactive] = await Promise.all([
    createAdminUser(db, { username: 'super', email: 'super@wellbeingcentre.in', password: PASSWORD, isSuperadmin: true }),
    createAdminUser(db, { username: 'desk', email: 'desk@wellbeingcentre.in', password: PASSWORD }),
    createAdminUser(db, { username: 'former', email: 'former@wellbeingcentre.in', password: PASSWORD }),
  ]);
  await setAdminActive(db, 'former', false);
  return { superadmin, admin, inactive };
}

export function tokenFor(admin: AdminUser, now: Date, ttlSeconds = testConfig.jwtTtlSeconds): string {
  return signAdminToken(admin, testConfig.jwtSecret, ttlSeconds, now);
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export function testRedis(): { redis: Redis; prefix: string } {
  const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  return { redis, prefix: `test:${randomBytes(6).toString('hex')}:` };
}

export async function dropPrefix(redis: Redis, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
}

/** A payments provider that records what it was asked and answers a fixed link. */
export class RecordingPayments implements PaymentsProvider {
  readonly name = 'sandbox' as const;
  readonly calls: CreatePaymentLinkInput[] = [];
  fail = false;
  async createPaymentLink(input: CreatePaymentLinkInput): Promise<PaymentLink> {
    this.calls.push(input);
    if (this.fail) throw new Error('provider down');
    const id = `plink_test_${this.calls.length}_${randomBytes(3).toString('hex')}`;
    return { id, shortUrl: `https://pay.example.test/${id}`, status: 'created', amountPaise: input.amountPaise, referenceId: input.referenceId };
  }
  async fetchPaymentLink(id: string): Promise<PaymentLink> {
    throw new Error(`not used: ${id}`);
  }
  async findPaymentLinkByReference(): Promise<PaymentLink | undefined> {
    return undefined;
  }
  async cancelPaymentLink(id: string): Promise<PaymentLink> {
    throw new Error(`not used: ${id}`);
  }
  async refundPayment(input: RefundInput): Promise<ProviderRefund> {
    throw new Error(`not used: ${input.paymentId}`);
  }
  async fetchPayment(paymentId: string): Promise<ProviderPayment> {
    throw new Error(`not used: ${paymentId}`);
  }
  async listPaymentRefunds(paymentId: string): Promise<ProviderRefund[]> {
    throw new Error(`not used: ${paymentId}`);
  }
  verifyCallback(): boolean {
    return false;
  }
  verifyWebhook(): boolean {
    return false;
  }
}

type NewBooking = typeof bookings.$inferInsert;

/** Writes a booking straight to the database, for reports built by hand. */
export async function insertBooking(db: Db, values: Partial<NewBooking> & Pick<NewBooking, 'therapistId' | 'bookingDate' | 'bookingTimeSlotStart'>) {
  const [row] = await db
    .insert(bookings)
    .values({
      bookingType: 'ONLINE',
      paymentStatus: 'COMPLETED',
      clientFullName: 'Test Client',
      clientEmail: 'client@example.com',
      clientMobile: '9000000000',
      amountPaise: 150_000,
      serviceId: 1,
      paymentTransactionId: `txn_${randomBytes(4).toString('hex')}`,
      ...values,
    })
    .returning();
  return row!;
}
