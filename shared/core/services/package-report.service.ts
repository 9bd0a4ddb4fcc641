import type { PackagesReport } from '../../contract/packages.ts';
import { paiseToRupees } from '../../domain/money.ts';
import { deferredPaise } from '../../domain/packages.ts';
import { addDays, centreInstant, centreNow } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { paidSalesWithMoney, soldBetween } from '../repositories/package.repository.ts';

/** How far ahead "expiring" looks. */
export const EXPIRING_WITHIN_DAYS = 30;

/**
 * GET /api/admin/reports/packages (issue 34): packages sold in [from, to] (centre days, by the day
 * their payment was taken; this month so far by default), and over every paid sale now: credits used,
 * left, expired and refunded, those expiring within 30 days with sessions left, and the money received
 * for sessions not yet given (deferred), from the payments ledger's money of each sale.
 */
export async function packagesReport(db: Db, q: { from?: string | undefined; to?: string | undefined }, now: Date): Promise<PackagesReport> {
  const today = centreNow(now).date;
  const from = q.from ?? `${today.slice(0, 8)}01`;
  const to = q.to ?? today;
  const [sold, sales] = await Promise.all([soldBetween(db, centreInstant(from, '00:00'), centreInstant(addDays(to, 1), '00:00')), paidSalesWithMoney(db)]);
  const horizon = addDays(today, EXPIRING_WITHIN_DAYS);
  let deferred = 0;
  const credits = { used: 0, left: 0, expired: 0, refunded: 0 };
  for (const s of sales) {
    credits.used += s.used - s.returned;
    credits.left += s.left;
    credits.expired += s.expired;
    credits.refunded += s.refunded;
    deferred += deferredPaise({ pricePaise: s.pricePaise, sessionsTotal: s.sessionsTotal, left: s.left, netPaise: s.netPaise });
  }
  return {
    from,
    to,
    sold: sold.map((r) => ({
      package_id: r.packageId,
      package_name: r.packageName,
      sales: r.sales,
      sessions: r.sessions,
      amount: paiseToRupees(r.amountPaise),
    })),
    totals: {
      sales: sold.reduce((n, r) => n + r.sales, 0),
      amount: paiseToRupees(sold.reduce((n, r) => n + r.amountPaise, 0)),
      sessions_sold: sold.reduce((n, r) => n + r.sessions, 0),
    },
    credits,
    expiring: sales
      .filter((s) => s.left > 0 && s.expiresOn! >= today && s.expiresOn! <= horizon)
      .map((s) => ({ sale_id: s.id, client_full_name: s.clientFullName, package_name: s.packageName, expires_on: s.expiresOn!, sessions_left: s.left })),
    deferred: paiseToRupees(deferred),
  };
}
