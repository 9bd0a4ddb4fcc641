import { toAdminBookingDto } from './admin-booking.repository.ts';
import { eq, getTableColumns, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queueOf } from '../jobs/jobs.ts';
import type { DbOrTx, JobIntent } from '../jobs/outbox.ts';
import { bookings, locations, therapists } from '../db/schema.ts';

export type BookingRow = typeof bookings.$inferSelect;

export type BookingView = BookingRow & {
  therapistName: string;
  therapistEmail: string | null;
  locationName: string | null;
  locationAddress: string | null;
};

const viewColumns = {
  booking: bookings,
  therapistName: therapists.name,
  therapistEmails: therapists.emails,
  locationName: locations.name,
  locationAddress: locations.address,
};

type Joined = { booking: BookingRow; therapistName: string; therapistEmails: string[]; locationName: string | null; locationAddress: string | null };

function toView(r: Joined): BookingView {
  return {
    ...r.booking,
    therapistName: r.therapistName,
    therapistEmail: r.therapistEmails[0] ?? null,
    locationName: r.locationName,
    locationAddress: r.locationAddress,
  };
}

export async function getBooking(db: DbOrTx, id: number): Promise<BookingRow | undefined> {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  return row;
}

export async function getBookingView(db: DbOrTx, id: number): Promise<BookingView | undefined> {
  const [row] = await db
    .select(viewColumns)
    .from(bookings)
    .innerJoin(therapists, eq(therapists.id, bookings.therapistId))
    .leftJoin(locations, eq(locations.id, bookings.locationId))
    .where(eq(bookings.id, id));
  return row ? toView(row) : undefined;
}

/**
 * The confirmation page knows a booking by an unguessable reference only: its payment link id
 * (online) or its payment transaction id (offline). Sequential booking ids would expose clients.
 */
export async function findBookingByPublicRef(db: DbOrTx, ref: string): Promise<BookingView | undefined> {
  const [row] = await db
    .select(viewColumns)
    .from(bookings)
    .innerJoin(therapists, eq(therapists.id, bookings.therapistId))
    .leftJoin(locations, eq(locations.id, bookings.locationId))
    .where(or(eq(bookings.razorpayPaymentLinkId, ref), eq(bookings.paymentTransactionId, ref)))
    .limit(1);
  return row ? toView(row) : undefined;
}

/** The booking record of spec section 3 (money in rupees), for the confirmation page: the admin record plus payment ids. */
export function toBookingRecord(b: BookingView) {
  return {
    ...toAdminBookingDto({ b, therapistName: b.therapistName, locationName: b.locationName, locationAddress: b.locationAddress }),
    razorpay_payment_link_id: b.razorpayPaymentLinkId,
    razorpay_payment_id: b.razorpayPaymentId,
    paid_at: b.paidAt?.toISOString() ?? null,
  };
}

/** What a new booking writes from the request; its price comes from the therapist, in the statement. */
export type NewBooking = Required<
  Pick<
    typeof bookings.$inferInsert,
    | 'therapistId' | 'serviceId' | 'bookingDate' | 'bookingTimeSlotStart' | 'bookingType' | 'locationId'
    | 'clientFullName' | 'clientEmail' | 'clientMobile' | 'clientAge' | 'clientState' | 'clientCity' | 'clientNote'
    | 'sessionType' | 'termsAccepted' | 'paymentStatus' | 'paymentHoldExpiresAt' | 'paymentTransactionId'
    | 'adminConfirmed' | 'createdByAdminId'
  >
>;
const NEW_BOOKING_KEYS = [
  'therapistId', 'serviceId', 'bookingDate', 'bookingTimeSlotStart', 'bookingType', 'locationId',
  'clientFullName', 'clientEmail', 'clientMobile', 'clientAge', 'clientState', 'clientCity', 'clientNote',
  'sessionType', 'termsAccepted', 'paymentStatus', 'paymentHoldExpiresAt', 'paymentTransactionId',
  'adminConfirmed', 'createdByAdminId',
] as const satisfies readonly (keyof NewBooking)[];
const columns = getTableColumns(bookings);
const param = (key: (typeof NEW_BOOKING_KEYS)[number]) => `$${NEW_BOOKING_KEYS.indexOf(key) + 1}::${columns[key].getSQLType()}`;

/**
 * Why the database refused a booking: the therapist is missing or inactive, offers the other session
 * type, works elsewhere, or the slot is not on their template (or blocked by the centre).
 */
export type BookingRefusal = 'therapist' | 'therapist_type' | 'location' | 'slot';
const THERAPIST_TYPE = { ONLINE: 1, OFFLINE: 2 } as const;

/**
 * The booking hot path in one statement, prepared once per connection: the therapist and template
 * checks, the insert (priced from the therapist) and its job intents. Data-modifying CTEs commit
 * together or not at all, so the outbox guarantee holds without a transaction's extra round trips.
 * Intents are built for the sentinel booking id 0 (real ids start at 1); the statement rewrites it in
 * each job id and payload to the id the insert produced. ctx sets booking.catalog_notify before the
 * row is written, so the insert trigger's WHEN skips it: the commit notifies nobody (migrations 0005
 * and 0006), so call announceBooking once this returns.
 */
const BOOKING_INSERT = `with ctx as (
    select t.price_paise, set_config('booking.catalog_notify', 'after_commit', true) as announced_after_commit,
      case
        when t.type <> $${NEW_BOOKING_KEYS.length + 2}::smallint then 'therapist_type'
        when ${param('locationId')} is not null and t.location_id is distinct from ${param('locationId')} then 'location'
        when not coalesce(s.is_available, false) or coalesce(s.admin_blocked, false) then 'slot'
      end as refusal
    from therapists t
    left join availability_slots s on s.therapist_id = t.id and s.start_time = ${param('bookingTimeSlotStart')}
    where t.id = ${param('therapistId')} and t.is_active
  ),
  b as (
    insert into bookings (${NEW_BOOKING_KEYS.map((k) => `"${columns[k].name}"`).join(', ')}, amount_paise)
    -- Never the client's figure: the therapist's price as the centre set it (none set books 0).
    select ${NEW_BOOKING_KEYS.map(param).join(', ')}, coalesce(ctx.price_paise, 0)
    from ctx where ctx.refusal is null
    returning id
  ),
  o as (
    insert into outbox (queue, job_name, job_id, payload, available_at)
    select x.queue, x.job_name, regexp_replace(x.job_id, '\\.0(\\.|$)', '.' || b.id || '\\1'),
           x.payload || jsonb_build_object('bookingId', b.id), coalesce(x.available_at, now())
    from b cross join jsonb_to_recordset($${NEW_BOOKING_KEYS.length + 1}::jsonb)
      as x(queue text, job_name text, job_id text, payload jsonb, available_at timestamptz)
    on conflict (queue, job_id) do nothing
  )
  select ctx.refusal, b.id from ctx left join b on true`;

/** Checks and writes a new online or in-person booking with its job intents, in one round trip. */
export async function insertBookingWithIntents(
  db: Db,
  values: NewBooking & { bookingType: 'ONLINE' | 'OFFLINE' },
  intentsFor: (bookingId: number) => JobIntent[],
): Promise<{ id: number; jobDueNow: boolean } | { refusal: BookingRefusal }> {
  const intents = intentsFor(0);
  const rows = intents.map((i) => ({
    queue: queueOf(i.name),
    job_name: i.name,
    job_id: i.jobId,
    payload: i.payload,
    available_at: i.runAt?.toISOString() ?? null,
  }));
  const result = await db.$client.query<{ refusal: BookingRefusal | null; id: number | null }>({
    name: 'booking_insert',
    text: BOOKING_INSERT,
    values: [
      ...NEW_BOOKING_KEYS.map((k) => (values[k] === null ? null : columns[k].mapToDriverValue(values[k]))),
      JSON.stringify(rows),
      THERAPIST_TYPE[values.bookingType],
    ],
  });
  const row = result.rows[0];
  if (!row) return { refusal: 'therapist' };
  if (row.refusal) return { refusal: row.refusal };
  return { id: row.id!, jobDueNow: intents.some((i) => !i.runAt) };
}
