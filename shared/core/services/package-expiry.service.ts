import { addDays, centreNow } from '../../domain/time.ts';
import type { Db } from '../db/client.ts';
import { jobIds } from '../jobs/jobs.ts';
import { enqueueInTx, intent } from '../jobs/outbox.ts';
import type { Logger } from '../logger.ts';
import { insertAudit } from '../repositories/audit.repository.ts';
import { appendCredit, creditsLeft, saleForUpdate, salesToExpire, salesToRemind, updateSaleRow } from '../repositories/package.repository.ts';

/**
 * The nightly upkeep of packages (issue 34), idempotent: run twice, or after a missed night, it does
 * each thing once. Credits of a sale past its last day expire (one 'expired' row per sale, what was
 * left); a client whose package expires within REMIND_DAYS with sessions left is reminded once per
 * expiry date (the sale records it, and the mail job is named by the date).
 */
export const REMIND_DAYS = 7;

const WORKER = { adminId: null, actor: 'worker:packages.expire' };

export async function expirePackages(deps: { db: Db; logger: Logger; now: () => Date }): Promise<{ expired: number; reminded: number }> {
  const now = deps.now();
  const today = centreNow(now).date;
  let expired = 0;
  for (const id of await salesToExpire(deps.db, today)) {
    const done = await deps.db.transaction(async (tx) => {
      const sale = await saleForUpdate(tx, id);
      if (!sale?.expiresOn || sale.expiresOn >= today) return false;
      const left = await creditsLeft(tx, id);
      if (left <= 0) return false;
      const wrote = await appendCredit(tx, { saleId: id, kind: 'expired', sessions: -left, ...WORKER, byAdminId: null, occurredAt: now });
      if (wrote) {
        await insertAudit(tx, {
          ...WORKER,
          action: 'package_sale.expire',
          entityType: 'package_sale',
          entityId: id,
          before: { sessions_left: left },
          after: { sessions_left: 0 },
        });
      }
      return wrote;
    });
    if (done) expired++;
  }
  let reminded = 0;
  for (const id of await salesToRemind(deps.db, today, addDays(today, REMIND_DAYS))) {
    const done = await deps.db.transaction(async (tx) => {
      const sale = await saleForUpdate(tx, id);
      if (!sale?.expiresOn || sale.expiryReminderSentAt) return false;
      await updateSaleRow(tx, id, { expiryReminderSentAt: now });
      await enqueueInTx(tx, [intent('mail.package-expiring', jobIds.packageExpiringMail(id, sale.expiresOn), { saleId: id })], now);
      return true;
    });
    if (done) reminded++;
  }
  deps.logger.info({ expired, reminded }, 'packages: credits expired and reminders written');
  return { expired, reminded };
}
