import type { DbOrTx } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { HOLD_ADDRESS_WINDOW_MINUTES, holdLockKeys, type HoldLimits } from '../repositories/booking-batch/booking-batch.ts';
import { lockClientKeys } from '../repositories/waitlist.repository.ts';

/** A count against a hold limit, and the seconds until one of them no longer counts. */
export type LimitCount = { count: number; retryAfterSeconds: number };

/**
 * The hold limits (HOLDS_PER_CLIENT, HOLDS_PER_IP) applied to a public request that is not a booking
 * (a waitlist join, an online package purchase): at most `perClient` live ones per e-mail and per
 * mobile, at most `perAddress` new ones from one address in HOLD_ADDRESS_WINDOW_MINUTES. The client's
 * and the address's advisory locks (holdLockKeys, the booking batch's own) are taken first, in the
 * caller's transaction, so two requests of one client are counted one at a time and none slips in
 * between count and insert. A refusal is a 429 with its `detail` and Retry-After, as a refused hold's.
 */
export async function enforceHoldLimits(
  tx: DbOrTx,
  client: { clientEmail: string; clientMobile: string; clientAddressHash: string | null },
  limits: HoldLimits,
  counts: {
    /** The client's live ones, by e-mail and by mobile (the larger count). */
    ofClient: () => Promise<LimitCount>;
    /** Those made from the address within `minutes`. */
    fromAddress: (addressHash: string, minutes: number) => Promise<LimitCount>;
  },
  messages: { perClient: (limit: number, retryAfterSeconds: number) => string; perAddress: (minutes: number) => string },
): Promise<void> {
  await lockClientKeys(tx, holdLockKeys(client, limits));
  if (limits.perClient > 0) {
    const live = await counts.ofClient();
    if (live.count >= limits.perClient) {
      throw new AppError('rate_limited', messages.perClient(limits.perClient, live.retryAfterSeconds), undefined, {
        retryAfterSeconds: live.retryAfterSeconds,
      });
    }
  }
  if (limits.perAddress > 0 && client.clientAddressHash) {
    const recent = await counts.fromAddress(client.clientAddressHash, HOLD_ADDRESS_WINDOW_MINUTES);
    if (recent.count >= limits.perAddress) {
      throw new AppError('rate_limited', messages.perAddress(Math.ceil(recent.retryAfterSeconds / 60)), undefined, {
        retryAfterSeconds: recent.retryAfterSeconds,
      });
    }
  }
}
