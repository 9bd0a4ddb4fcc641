import { sendPackageExpiring, sendPackageRefunded, sendPackageSold } from '../../../shared/core/services/package-notification.service.ts';
import type { JobHandler } from './handler.ts';

/** A package sold: the client's e-mail with their package's private link. */
export const packageSoldMailJob: JobHandler<'mail.package-sold'> = async (p, deps) => ({ result: await sendPackageSold(deps, p.saleId) });

/** Seven days before a package expires with sessions left. */
export const packageExpiringMailJob: JobHandler<'mail.package-expiring'> = async (p, deps) => ({ result: await sendPackageExpiring(deps, p.saleId) });

/** A package's unused sessions refunded. */
export const packageRefundedMailJob: JobHandler<'mail.package-refunded'> = async (p, deps) => ({
  result: await sendPackageRefunded(deps, p.saleId, p.paymentId),
});
