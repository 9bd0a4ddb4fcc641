import type { QueryConfig } from 'pg';
import type { Db } from './client.ts';

/**
 * How long an announcement may take before it is given up (it takes milliseconds). Its bookings are
 * committed and answered after it, so a connection that stalls must not hold them, nor every
 * announcement gathered behind it.
 */
const ANNOUNCE_TIMEOUT_MS = 3_000;

type Announcement = { payloads: Set<string>; wakeRelay: boolean; sent: Promise<void>; settle: (err?: Error) => void };
/** Per database handle: the batch being gathered, and whether one is on its way. */
type Announcer = { gathering: Announcement | undefined; sending: boolean };
const announcers = new WeakMap<Db, Announcer>();

/**
 * Tells every process that a therapist's bookings changed (their read caches drop the offer) and,
 * when a job is due now, wakes the outbox relay; a lost announcement only delays the relay to its
 * next poll. Announcements share one notify-only transaction (committing it need not wait for the
 * disk): those made in the same turn of the event loop, and, while one is on its way, all made until
 * it is answered. Under load that is one round trip per round trip, not per booking. Resolves once
 * the announcement is sent.
 */
export function announceBooking(db: Db, therapistId: number, wakeRelay: boolean): Promise<void> {
  let announcer = announcers.get(db);
  if (!announcer) announcers.set(db, (announcer = { gathering: undefined, sending: false }));
  let batch = announcer.gathering;
  if (!batch) {
    let settle!: (err?: Error) => void;
    const sent = new Promise<void>((resolve, reject) => {
      settle = (err) => (err ? reject(err) : resolve());
    });
    announcer.gathering = batch = { payloads: new Set(), wakeRelay: false, sent, settle };
    if (!announcer.sending) scheduleAnnouncement(db, announcer);
  }
  batch.payloads.add(`therapist:${therapistId}`);
  batch.wakeRelay ||= wakeRelay;
  return batch.sent;
}

function scheduleAnnouncement(db: Db, announcer: Announcer): void {
  setImmediate(() => {
    const batch = announcer.gathering;
    if (!batch) return;
    announcer.gathering = undefined;
    announcer.sending = true;
    const payloads = [...batch.payloads];
    const channels = payloads.map(() => 'catalog_changed');
    if (batch.wakeRelay) {
      channels.push('outbox');
      payloads.push('');
    }
    // query_timeout is pg's own (not in its types): it fails the query and the pool destroys the connection.
    const query = {
      name: 'booking_announce',
      text: `select set_config('synchronous_commit', 'off', true), pg_notify(n.channel, n.payload)
             from unnest($1::text[], $2::text[]) as n(channel, payload)`,
      values: [channels, payloads],
      query_timeout: ANNOUNCE_TIMEOUT_MS,
    };
    db.$client
      .query(query as QueryConfig)
      .then(
        () => batch.settle(),
        (err: Error) => batch.settle(err),
      )
      .finally(() => {
        announcer.sending = false;
        if (announcer.gathering) scheduleAnnouncement(db, announcer);
      });
  });
}
