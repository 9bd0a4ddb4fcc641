import { and, asc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { bookings, locations, therapists, waitlistEntries, waitlistOffers } from '../db/schema.ts';
import type { DbOrTx } from '../db/client.ts';
import { LIVE_BOOKING_SQL, liveBooking } from './live-booking.ts';

/** The waitlist's SQL (issue 34); the rules are waitlist.service.ts's. */

export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect;
export type WaitlistOfferRow = typeof waitlistOffers.$inferSelect;

const LIVE_ENTRY = inArray(waitlistEntries.status, ['waiting', 'offered']);

/** Takes the advisory locks a client's limited request counts under (holdLockKeys), in their order, until the transaction ends. */
export async function lockClientKeys(tx: DbOrTx, keys: readonly number[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(k) from unnest(${`{${keys.join(',')}}`}::bigint[]) as k order by k`);
}

/** The client's live entries (their range not over by `today`), by e-mail and by mobile: the larger count. */
export async function liveEntriesOfClient(tx: DbOrTx, email: string, mobile: string, today: string): Promise<number> {
  const { rows } = await tx.execute<{ n: number }>(sql`
    select greatest(
      (select count(*) from waitlist_entries where client_email = ${email} and status in ('waiting', 'offered') and to_date >= ${today}::date),
      (select count(*) from waitlist_entries where client_mobile = ${mobile} and status in ('waiting', 'offered') and to_date >= ${today}::date))::int as n`);
  return rows[0]!.n;
}

export async function insertEntry(tx: DbOrTx, values: typeof waitlistEntries.$inferInsert): Promise<WaitlistEntryRow> {
  const [row] = await tx.insert(waitlistEntries).values(values).returning();
  return row!;
}

export async function updateEntry(tx: DbOrTx, id: number, set: Partial<typeof waitlistEntries.$inferInsert>): Promise<WaitlistEntryRow> {
  const [row] = await tx.update(waitlistEntries).set(set).where(eq(waitlistEntries.id, id)).returning();
  return row!;
}

/** The entry whose link token hashes to `hash`, locked until the transaction ends. */
export async function lockEntryByTokenHash(tx: DbOrTx, hash: string): Promise<WaitlistEntryRow | undefined> {
  const [row] = await tx.select().from(waitlistEntries).where(eq(waitlistEntries.tokenHash, hash)).for('update');
  return row;
}

export type EntryView = WaitlistEntryRow & {
  therapistName: string;
  therapistType: number;
  pricePaise: number | null;
  locationName: string | null;
  locationAddress: string | null;
};

/** The entry with its therapist and centre, as the client's page and e-mails show it. */
export async function findEntryView(db: DbOrTx, where: { id: number } | { tokenHash: string }): Promise<EntryView | undefined> {
  const [row] = await db
    .select({
      entry: waitlistEntries,
      therapistName: therapists.name,
      therapistType: therapists.type,
      pricePaise: therapists.pricePaise,
      locationName: locations.name,
      locationAddress: locations.address,
    })
    .from(waitlistEntries)
    .innerJoin(therapists, eq(therapists.id, waitlistEntries.therapistId))
    .leftJoin(locations, eq(locations.id, therapists.locationId))
    .where('id' in where ? eq(waitlistEntries.id, where.id) : eq(waitlistEntries.tokenHash, where.tokenHash));
  if (!row) return undefined;
  const { entry, ...rest } = row;
  return { ...entry, ...rest };
}

/** The entry's open offer (at most one: waitlist_offers_open_uq), if any. */
export async function openOfferOf(db: DbOrTx, entryId: number): Promise<WaitlistOfferRow | undefined> {
  const [row] = await db
    .select()
    .from(waitlistOffers)
    .where(and(eq(waitlistOffers.entryId, entryId), isNull(waitlistOffers.outcome)));
  return row;
}

export async function findOffer(db: DbOrTx, id: number): Promise<WaitlistOfferRow | undefined> {
  const [row] = await db.select().from(waitlistOffers).where(eq(waitlistOffers.id, id));
  return row;
}

export async function lockOffer(tx: DbOrTx, id: number): Promise<WaitlistOfferRow | undefined> {
  const [row] = await tx.select().from(waitlistOffers).where(eq(waitlistOffers.id, id)).for('update');
  return row;
}

export async function settleOffer(tx: DbOrTx, id: number, outcome: 'claimed' | 'lapsed' | 'left', now: Date): Promise<void> {
  await tx
    .update(waitlistOffers)
    .set({ outcome, settledAt: now })
    .where(and(eq(waitlistOffers.id, id), isNull(waitlistOffers.outcome)));
}

/** One waitlist offer's work on a slot at a time: the freed-slot job, an offer's expiry and a claim take this first. */
export async function lockSlot(tx: DbOrTx, therapistId: number, date: string, start: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`waitlist-slot:${therapistId}:${date}:${start}`}, 0))`);
}

/**
 * Open offers of the therapist's slot whose hold no longer holds it (it ended, or was cancelled):
 * lapsed, and their entries back to waiting (they keep their place for other slots). Answers their ids.
 */
export async function lapseDeadOffers(tx: DbOrTx, therapistId: number, date: string, start: string, now: Date): Promise<number[]> {
  const { rows } = await tx.execute<{ entry_id: number }>(sql`
    with dead as (
      update waitlist_offers o set outcome = 'lapsed', settled_at = ${now.toISOString()}::timestamptz
      from bookings b
      where b.id = o.booking_id and o.outcome is null and b.therapist_id = ${therapistId}
        and o.booking_date = ${date}::date and o.booking_time_slot_start = ${start}::time
        and not exists (select 1 from bookings l where l.id = b.id and ${sql.raw(LIVE_BOOKING_SQL)}
             and l.booking_date = o.booking_date and l.booking_time_slot_start = o.booking_time_slot_start)
      returning o.entry_id)
    update waitlist_entries e set status = 'waiting' from dead where e.id = dead.entry_id and e.status = 'offered'
    returning e.id as entry_id`);
  return rows.map((r) => r.entry_id);
}

/**
 * The first entry waiting for this slot: the therapist's, the date in its range, the start at a time of
 * day it asked for (`part`, timeOfDay), never offered this slot before; first joined first. Locked, so
 * two jobs never offer one entry two slots at once.
 */
export async function nextWaitingFor(tx: DbOrTx, therapistId: number, date: string, start: string, part: string): Promise<WaitlistEntryRow | undefined> {
  const [row] = await tx
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.therapistId, therapistId),
        eq(waitlistEntries.status, 'waiting'),
        sql`${date}::date between ${waitlistEntries.fromDate} and ${waitlistEntries.toDate}`,
        sql`(cardinality(${waitlistEntries.times}) = 0 or ${part} = any(${waitlistEntries.times}))`,
        sql`not exists (select 1 from waitlist_offers o where o.entry_id = ${waitlistEntries.id}
              and o.booking_date = ${date}::date and o.booking_time_slot_start = ${start}::time)`,
      ),
    )
    .orderBy(asc(waitlistEntries.joinedAt), asc(waitlistEntries.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function insertOffer(tx: DbOrTx, values: typeof waitlistOffers.$inferInsert): Promise<WaitlistOfferRow> {
  const [row] = await tx.insert(waitlistOffers).values(values).returning();
  return row!;
}

/** The booking row an offer holds its slot with, locked, and whether it still holds it. */
export async function lockOfferHold(tx: DbOrTx, bookingId: number): Promise<(typeof bookings.$inferSelect & { live: boolean }) | undefined> {
  const [row] = await tx
    .select({ booking: bookings, live: sql<boolean>`${liveBooking}` })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .for('update');
  return row ? { ...row.booking, live: row.live } : undefined;
}

export type AdminWaitlistRow = WaitlistEntryRow & { offer: WaitlistOfferRow | null };

/** A therapist's live entries (their range not over by `today`) in the order they are offered, each with its open offer. */
export async function liveEntriesOfTherapist(db: Db, therapistId: number, today: string): Promise<AdminWaitlistRow[]> {
  const rows = await db
    .select({ entry: waitlistEntries, offer: waitlistOffers })
    .from(waitlistEntries)
    .leftJoin(waitlistOffers, and(eq(waitlistOffers.entryId, waitlistEntries.id), isNull(waitlistOffers.outcome)))
    .where(and(eq(waitlistEntries.therapistId, therapistId), LIVE_ENTRY, gte(waitlistEntries.toDate, today)))
    .orderBy(asc(waitlistEntries.joinedAt), asc(waitlistEntries.id));
  return rows.map((r) => ({ ...r.entry, offer: r.offer }));
}
