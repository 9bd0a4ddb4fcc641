import { z } from 'zod';
import { isIsoDate } from '../domain/time.ts';
import { cashUpMethodSchema, paymentSchema } from './admin.ts';

/**
 * The cash-up (issue 31): a day's money by when it moved (the ledger's occurred_at, the day taken at
 * the centre, Asia/Kolkata), not by when its sessions are. What the desk counts the till against:
 * each method's money taken, handed back and net, and every movement with who recorded it. Any admin
 * may read it. Money in rupees.
 */

/** GET /api/admin/reports/cash-up(.xlsx)?date=YYYY-MM-DD; today at the centre when left out. */
export const cashUpQuerySchema = z.strictObject({
  date: z.string().refine(isIsoDate, { error: 'date must be a real date written YYYY-MM-DD' }).optional(),
});

/** Taken: payments in; refunded: money handed back, as a positive number; net: taken less refunded. */
const moneyFields = { taken: z.number(), refunded: z.number(), net: z.number() };
export const cashUpTotalsSchema = z.strictObject(moneyFields);

export const cashUpLineSchema = z.strictObject({ method: cashUpMethodSchema, label: z.string(), ...moneyFields });
export type CashUpLine = z.infer<typeof cashUpLineSchema>;

export const cashUpMovementSchema = z.strictObject({
  /** The ledger row's id. */
  id: z.number().int(),
  kind: z.enum(['PAYMENT', 'REFUND']),
  /** When the money moved (ISO 8601), and that time at the centre ('HH:MM', IST). */
  occurred_at: z.string(),
  time: z.string(),
  /** The booking the money is for; null for a package sale's money (package_sale_id, issue 34). */
  booking_id: z.number().int().nullable(),
  package_sale_id: z.number().int().nullable(),
  client_name: z.string(),
  /** The session the money is for: its date and start time at the centre (null for a package sale). */
  session_date: z.string().nullable(),
  session_time: z.string().nullable(),
  method: cashUpMethodSchema,
  /** The ledger's own method: for ONLINE what the client paid with (UPI, CARD, …). */
  paid_with: paymentSchema.shape.method,
  /** Refunds negative. */
  amount: z.number(),
  /** The admin's username, or CASH_UP_RECORDED_BY's words (shared/domain/cash-up.ts). */
  recorded_by: z.string(),
});
export type CashUpMovement = z.infer<typeof cashUpMovementSchema>;

/**
 * methods: CASH, CARD, UPI, BANK_TRANSFER and ONLINE always, in that order, then OTHER only on a day
 * that has such money. at_desk: every method but ONLINE (what the counter took); total: all of them.
 * movements: oldest first.
 */
export const cashUpReportSchema = z.strictObject({
  date: z.string(),
  methods: z.array(cashUpLineSchema),
  at_desk: cashUpTotalsSchema,
  total: cashUpTotalsSchema,
  movements: z.array(cashUpMovementSchema),
});
export type CashUpReport = z.infer<typeof cashUpReportSchema>;
