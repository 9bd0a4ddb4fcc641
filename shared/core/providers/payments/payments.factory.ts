import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { PaymentsProvider } from './payments.provider.ts';
import { razorpayProvider } from './razorpay.provider.ts';
import { sandboxProvider } from './sandbox.provider.ts';

/** The provider the configuration names; config() already refused sandbox in production unless explicitly allowed. */
export function paymentsFromConfig(config: Config, db: Db, now: () => Date): PaymentsProvider {
  const p = config.payments;
  if (p.provider === 'razorpay') return razorpayProvider(p);
  return sandboxProvider({ db, secret: p.secret, publicBaseUrl: config.publicBaseUrl, webhookUrl: p.webhookUrl, now });
}
