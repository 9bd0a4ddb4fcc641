import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  time,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { SLOT_RELEASING_STATUSES } from '../../domain/slot-states.ts';

export const bookingTypeEnum = pgEnum('booking_type', ['ONLINE', 'OFFLINE', 'ADMIN_BLOCK']);
export const paymentStatusEnum = pgEnum('payment_status', ['COMPLETED', 'PENDING', 'INITIATED', 'FAILED', 'BLOCKED', 'CANCELLED']);
export const sessionTypeEnum = pgEnum('session_type', ['individual', 'couple']);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const locations = pgTable('locations', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  address: text('address').notNull(),
  phone: text('phone').notNull().default(''),
  ...timestamps,
});

export const services = pgTable('services', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull().unique(),
});

export const therapists = pgTable(
  'therapists',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    title: text('title').notNull().default(''),
    specialization: text('specialization').notNull().default(''),
    bio: text('bio').notNull().default(''),
    /** Consultation price in paise; null when the centre has not set one. */
    pricePaise: integer('price_paise'),
    imageUrl: text('image_url').notNull().default(''),
    /** 1 online, 2 offline. */
    type: smallint('type').notNull(),
    locationId: integer('location_id').references(() => locations.id),
    emails: text('emails').array().notNull().default(sql`'{}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    check('therapists_type_check', sql`${t.type} in (1, 2)`),
    check('therapists_price_check', sql`${t.pricePaise} is null or ${t.pricePaise} >= 0`),
    check('therapists_offline_location_check', sql`${t.type} = 1 or ${t.locationId} is not null`),
  ],
);

export const therapistServices = pgTable(
  'therapist_services',
  {
    therapistId: integer('therapist_id')
      .notNull()
      .references(() => therapists.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.therapistId, t.serviceId] })],
);

/** A therapist's daily template: the hours they work on every non-Sunday day. */
export const availabilitySlots = pgTable(
  'availability_slots',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    therapistId: integer('therapist_id')
      .notNull()
      .references(() => therapists.id, { onDelete: 'cascade' }),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    isAvailable: boolean('is_available').notNull().default(true),
    adminBlocked: boolean('admin_blocked').notNull().default(false),
    locationId: integer('location_id').references(() => locations.id),
    /**
     * The weekdays (0 Sunday … 6 Saturday) this start time is worked on. Rows from before weekly hours
     * hold every day, as the daily template did; the panel's weekly hours write Monday–Saturday only.
     */
    weekdays: smallint('weekdays').array().notNull().default(sql`'{0,1,2,3,4,5,6}'::smallint[]`),
  },
  (t) => [
    uniqueIndex('availability_slots_therapist_start_uq').on(t.therapistId, t.startTime),
    check('availability_slots_order_check', sql`${t.endTime} > ${t.startTime}`),
    check('availability_slots_weekdays_check', sql`${t.weekdays} <@ '{0,1,2,3,4,5,6}'::smallint[]`),
  ],
);

/** A therapist's days off, from_date to to_date inclusive: those dates leave their offer. */
export const therapistTimeOff = pgTable(
  'therapist_time_off',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    therapistId: integer('therapist_id')
      .notNull()
      .references(() => therapists.id, { onDelete: 'cascade' }),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    reason: text('reason').notNull().default(''),
    createdByAdminId: integer('created_by_admin_id').references(() => adminUsers.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('therapist_time_off_therapist_idx').on(t.therapistId, t.toDate), check('therapist_time_off_order_check', sql`${t.toDate} >= ${t.fromDate}`)],
);

/** Days the whole centre is closed: they leave every therapist's offer. */
export const centreHolidays = pgTable('centre_holidays', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  holidayDate: date('holiday_date', { mode: 'string' }).notNull().unique(),
  reason: text('reason').notNull().default(''),
  createdByAdminId: integer('created_by_admin_id').references(() => adminUsers.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const adminUsers = pgTable(
  'admin_users',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    isSuperadmin: boolean('is_superadmin').notNull().default(false),
    isAdmin: boolean('is_admin').notNull().default(true),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * Carried in every token as `sv`; raised when the admin is deactivated or their password changes, so
     * every token issued before stops working at once.
     */
    sessionVersion: integer('session_version').notNull().default(1),
    ...timestamps,
  },
  (t) => [uniqueIndex('admin_users_username_uq').on(sql`lower(${t.username})`), uniqueIndex('admin_users_email_uq').on(sql`lower(${t.email})`)],
);

/**
 * A column's value while the booking is a public online booking's unpaid hold, else null: what the
 * per-client hold counts (book_batch, migration 0018) look clients up by.
 */
const whileUnpaidHold = (column: string) =>
  sql.raw(`case when payment_status = 'INITIATED' and booking_type = 'ONLINE' and not cancelled and created_by_admin_id is null then ${column} end`);

/**
 * A course of therapy booked at once (issue 34): the same therapist, type, centre and time every one or
 * two weeks. Each of its sessions is a booking like any other (bookings.series_id); this row keeps what
 * was asked, for the panel, the audit and the series' one confirmation e-mail.
 */
export const series = pgTable(
  'series',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    therapistId: integer('therapist_id')
      .notNull()
      .references(() => therapists.id),
    bookingType: bookingTypeEnum('booking_type').notNull(),
    locationId: integer('location_id').references(() => locations.id),
    bookingTimeSlotStart: time('booking_time_slot_start').notNull(),
    firstDate: date('first_date', { mode: 'string' }).notNull(),
    intervalWeeks: smallint('interval_weeks').notNull(),
    /** How many sessions were asked for (some may have been skipped as conflicts). */
    sessionsAsked: smallint('sessions_asked').notNull(),
    clientFullName: text('client_full_name').notNull(),
    clientEmail: text('client_email').notNull(),
    clientMobile: text('client_mobile').notNull(),
    /** How each session is paid: SEND_LINK, PAY_AT_CENTRE, PAID_NOW (admin-booking.service.ts's settlements) or PACKAGE (a credit of package_sale_id each). */
    settlement: text('settlement').$type<'SEND_LINK' | 'PAY_AT_CENTRE' | 'PAID_NOW' | 'PACKAGE'>().notNull(),
    /** The package sale whose credits pay the sessions (settlement PACKAGE), else null. */
    packageSaleId: integer('package_sale_id').references((): AnyPgColumn => packageSales.id),
    createdByAdminId: integer('created_by_admin_id').references(() => adminUsers.id),
    ...timestamps,
  },
  (t) => [
    check('series_interval_check', sql`${t.intervalWeeks} in (1, 2)`),
    check('series_sessions_check', sql`${t.sessionsAsked} between 2 and 52`),
    check('series_settlement_check', sql`${t.settlement} in ('SEND_LINK', 'PAY_AT_CENTRE', 'PAID_NOW', 'PACKAGE')`),
    check('series_package_sale_check', sql`(${t.settlement} = 'PACKAGE') = (${t.packageSaleId} is not null)`),
  ],
);

export const bookings = pgTable(
  'bookings',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    therapistId: integer('therapist_id')
      .notNull()
      .references(() => therapists.id),
    serviceId: integer('service_id').references(() => services.id),
    bookingDate: date('booking_date', { mode: 'string' }).notNull(),
    bookingTimeSlotStart: time('booking_time_slot_start').notNull(),
    bookingType: bookingTypeEnum('booking_type').notNull(),
    locationId: integer('location_id').references(() => locations.id),
    clientFullName: text('client_full_name').notNull().default(''),
    clientEmail: text('client_email').notNull().default(''),
    clientMobile: text('client_mobile').notNull().default(''),
    clientAge: smallint('client_age'),
    clientState: text('client_state'),
    clientCity: text('client_city'),
    clientNote: text('client_note').notNull().default(''),
    sessionType: sessionTypeEnum('session_type'),
    termsAccepted: boolean('terms_accepted').notNull().default(false),
    paymentStatus: paymentStatusEnum('payment_status').notNull(),
    paymentTransactionId: text('payment_transaction_id'),
    amountPaise: integer('amount_paise').notNull().default(0),
    cancelled: boolean('cancelled').notNull().default(false),
    adminConfirmed: boolean('admin_confirmed').notNull().default(false),
    createdByAdminId: integer('created_by_admin_id').references(() => adminUsers.id),
    googleMeetLink: text('google_meet_link'),
    paymentLinkUrl: text('payment_link_url'),
    razorpayPaymentLinkId: text('razorpay_payment_link_id'),
    razorpayPaymentId: text('razorpay_payment_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** An unpaid online booking holds its slot until then; reconciliation frees it afterwards. */
    paymentHoldExpiresAt: timestamp('payment_hold_expires_at', { withTimezone: true }),
    /** SHA-256 of the booking token only its client received; the token itself is never stored. */
    bookingTokenHash: text('booking_token_hash'),
    /** Keyed hash of the address a public booking came from, for the per-address hold limit; never the address. */
    clientAddressHash: text('client_address_hash'),
    /**
     * The client's e-mail and mobile while this is an unpaid public hold (null otherwise), kept by
     * PostgreSQL. The hold counts (HOLDS_PER_CLIENT) ask for these columns, which only their own
     * indexes hold, so the planner cannot read bookings_initiated_idx or the other client index
     * instead, as it did when the statistics were taken with no hold live (migration 0017).
     */
    holdEmail: text('hold_email').generatedAlwaysAs(whileUnpaidHold('client_email')),
    holdMobile: text('hold_mobile').generatedAlwaysAs(whileUnpaidHold('client_mobile')),
    /** Whether the client came to a past session: ATTENDED, NO_SHOW, or null while not marked. */
    attendance: text('attendance').$type<'ATTENDED' | 'NO_SHOW'>(),
    attendanceMarkedAt: timestamp('attendance_marked_at', { withTimezone: true }),
    attendanceMarkedByAdminId: integer('attendance_marked_by_admin_id').references(() => adminUsers.id),
    /** SHA-256 of the client's Manage booking token (issue 21); the token is derived, never stored. */
    manageTokenHash: text('manage_token_hash'),
    /** How many times the client moved this session themselves (MAX_RESCHEDULES). */
    rescheduleCount: smallint('reschedule_count').notNull().default(0),
    /** The calendar invitation's SEQUENCE: each change the client is sent raises it by one. */
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    /** WhatsApp reminder consent: when the client ticked the box, and the words they agreed to. */
    whatsappOptInAt: timestamp('whatsapp_opt_in_at', { withTimezone: true }),
    whatsappConsentText: text('whatsapp_consent_text'),
    /** The client's own last change from Manage booking (MOVED or CANCELLED) and when, for the panel. */
    clientChange: text('client_change').$type<'MOVED' | 'CANCELLED'>(),
    clientChangedAt: timestamp('client_changed_at', { withTimezone: true }),
    /** When the centre last sent the client this booking's payment link, and by which channels (email, whatsapp). */
    paymentLinkSentAt: timestamp('payment_link_sent_at', { withTimezone: true }),
    paymentLinkSentTo: text('payment_link_sent_to').array(),
    /** The series this session belongs to (issue 34); null for a booking made alone. */
    seriesId: integer('series_id').references(() => series.id),
    ...timestamps,
  },
  (t) => [
    // The one rule that keeps a therapist from being double-booked, whatever the concurrency.
    uniqueIndex('bookings_live_slot_uq')
      .on(t.therapistId, t.bookingDate, t.bookingTimeSlotStart)
      .where(sql`not ${t.cancelled} and ${t.paymentStatus} not in (${sql.raw(SLOT_RELEASING_STATUSES.map((s) => `'${s}'`).join(', '))})`),
    index('bookings_date_idx').on(t.bookingDate),
    index('bookings_initiated_idx').on(t.paymentHoldExpiresAt).where(sql`${t.paymentStatus} = 'INITIATED'`),
    // A client's live holds (HOLDS_PER_CLIENT), counted by e-mail and by mobile for every public
    // booking: without these each count read every live hold of the centre.
    index('bookings_hold_email_idx').on(t.holdEmail, t.paymentHoldExpiresAt).where(sql`${t.holdEmail} is not null`),
    index('bookings_hold_mobile_idx').on(t.holdMobile, t.paymentHoldExpiresAt).where(sql`${t.holdMobile} is not null`),
    index('bookings_client_name_idx').on(sql`lower(${t.clientFullName})`),
    index('bookings_series_idx').on(t.seriesId).where(sql`${t.seriesId} is not null`),
    uniqueIndex('bookings_payment_link_uq').on(t.razorpayPaymentLinkId),
    // The client's idempotency key: a retried request finds the booking it already made.
    uniqueIndex('bookings_payment_txn_uq').on(t.paymentTransactionId),
    uniqueIndex('bookings_manage_token_uq').on(t.manageTokenHash),
    // Holds per client address in the last minutes (HOLDS_PER_IP).
    index('bookings_client_address_idx').on(t.clientAddressHash, t.createdAt).where(sql`${t.clientAddressHash} is not null`),
    check('bookings_amount_check', sql`${t.amountPaise} >= 0`),
    check('bookings_reschedule_count_check', sql`${t.rescheduleCount} >= 0`),
    check('bookings_client_change_check', sql`${t.clientChange} is null or ${t.clientChange} in ('MOVED', 'CANCELLED')`),
    check('bookings_attendance_check', sql`${t.attendance} is null or ${t.attendance} in ('ATTENDED', 'NO_SHOW')`),
  ],
);

/** Job intents written in the same transaction as the change that needs them (issue: never lose work). */
export const outbox = pgTable(
  'outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    queue: text('queue').notNull(),
    jobName: text('job_name').notNull(),
    jobId: text('job_id').notNull(),
    payload: jsonb('payload').notNull(),
    availableAt: timestamp('available_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** Set when the worker finished the job: a Redis that lost its data gets back only the jobs not done. */
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * A relay took the row to hand to BullMQ and no other relay takes it before then (issue 32: the
     * relay no longer keeps a transaction open while Redis answers). A relay that dies mid-hand-over
     * leaves the row to be taken again once this passes; the job id keeps it one job.
     */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
  },
  (t) => [index('outbox_pending_idx').on(t.availableAt).where(sql`${t.dispatchedAt} is null`), uniqueIndex('outbox_job_uq').on(t.queue, t.jobId)],
);

/**
 * A staff account's invitation: the set-password link's token is never stored, only its SHA-256. One
 * use, within 48 hours; a newer invitation (or a password reset) replaces the older ones.
 */
export const adminInvitations = pgTable(
  'admin_invitations',
  {
    id: text('id').primaryKey(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_invitations_admin_idx').on(t.adminId)],
);

/** Admin tokens signed out before their expiry (POST /api/admin/logout), kept until they would have expired. */
export const adminTokenRevocations = pgTable(
  'admin_token_revocations',
  {
    jti: text('jti').primaryKey(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('admin_token_revocations_expires_idx').on(t.expiresAt)],
);

/** Who changed what, with the state before and after; written in the same transaction as the change. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Null when the change came from the command line rather than a signed-in admin. */
    adminId: integer('admin_id').references(() => adminUsers.id),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('audit_log_at_idx').on(t.at.desc(), t.id.desc())],
);

/**
 * Nightly totals per day. A row exists only for an aggregated day; a trigger on bookings deletes the
 * day's rows whenever one of its bookings changes, so reports fall back to live data until re-aggregated.
 */
export const reportDaily = pgTable('report_daily', {
  reportDate: date('report_date', { mode: 'string' }).primaryKey(),
  totalBookings: integer('total_bookings').notNull(),
  completedBookings: integer('completed_bookings').notNull(),
  cancelledBookings: integer('cancelled_bookings').notNull(),
  failedBookings: integer('failed_bookings').notNull(),
  /** Net money of the day's bookings in the ledger (captures less refunds). */
  incomePaise: bigint('income_paise', { mode: 'number' }).notNull(),
  /** Refunds of the day's bookings, as a positive number of paise. */
  refundedPaise: bigint('refunded_paise', { mode: 'number' }).notNull().default(0),
  attendedBookings: integer('attended_bookings').notNull().default(0),
  noShowBookings: integer('no_show_bookings').notNull().default(0),
  aggregatedAt: timestamp('aggregated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const reportDailyTherapist = pgTable(
  'report_daily_therapist',
  {
    reportDate: date('report_date', { mode: 'string' })
      .notNull()
      .references(() => reportDaily.reportDate, { onDelete: 'cascade' }),
    therapistId: integer('therapist_id')
      .notNull()
      .references(() => therapists.id),
    totalBookings: integer('total_bookings').notNull(),
    completedBookings: integer('completed_bookings').notNull(),
    cancelledBookings: integer('cancelled_bookings').notNull(),
    failedBookings: integer('failed_bookings').notNull(),
    incomePaise: bigint('income_paise', { mode: 'number' }).notNull(),
    refundedPaise: bigint('refunded_paise', { mode: 'number' }).notNull().default(0),
    attendedBookings: integer('attended_bookings').notNull().default(0),
    noShowBookings: integer('no_show_bookings').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.reportDate, t.therapistId] })],
);
/** Provider webhook deliveries already handled, keyed by the provider's event id (x-razorpay-event-id). */
export const webhookEvents = pgTable('webhook_events', {
  eventId: text('event_id').primaryKey(),
  provider: text('provider').notNull(),
  event: text('event').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The payments ledger: every rupee captured or returned, one row each, written once (the unique indexes
 * on the provider's ids decide every race between callback, webhook and reconciliation). Captures are
 * positive, refunds negative; a booking's money is the sum of its rows.
 */
export const paymentsLedger = pgTable(
  'payments_ledger',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The booking the money is for; null for a package sale's money (package_sale_id), which is for no one session. */
    bookingId: integer('booking_id').references(() => bookings.id),
    packageSaleId: integer('package_sale_id').references((): AnyPgColumn => packageSales.id),
    kind: text('kind').$type<'capture' | 'refund'>().notNull(),
    /** razorpay, sandbox, or counter (money taken at the centre). */
    provider: text('provider').$type<'razorpay' | 'sandbox' | 'counter'>().notNull(),
    /** The provider's payment id (a refund: the payment it returns); a counter payment gets one of ours. */
    paymentId: text('payment_id').notNull(),
    refundId: text('refund_id'),
    linkId: text('link_id'),
    amountPaise: integer('amount_paise').notNull(),
    method: text('method').$type<'UPI' | 'CARD' | 'NETBANKING' | 'WALLET' | 'CASH' | 'BANK_TRANSFER' | 'OTHER'>().notNull(),
    reason: text('reason'),
    recordedByAdminId: integer('recorded_by_admin_id').references(() => adminUsers.id),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payments_ledger_kind_check', sql`${t.kind} in ('capture', 'refund')`),
    check('payments_ledger_sign_check', sql`(${t.kind} = 'capture' and ${t.amountPaise} > 0) or (${t.kind} = 'refund' and ${t.amountPaise} < 0)`),
    check('payments_ledger_method_check', sql`${t.method} in ('UPI', 'CARD', 'NETBANKING', 'WALLET', 'CASH', 'BANK_TRANSFER', 'OTHER')`),
    check('payments_ledger_refund_id_check', sql`(${t.kind} = 'refund') = (${t.refundId} is not null)`),
    check('payments_ledger_owner_check', sql`(${t.bookingId} is null) <> (${t.packageSaleId} is null)`),
    uniqueIndex('payments_ledger_capture_uq').on(t.provider, t.paymentId).where(sql`${t.kind} = 'capture'`),
    uniqueIndex('payments_ledger_refund_uq').on(t.provider, t.refundId).where(sql`${t.kind} = 'refund'`),
    index('payments_ledger_booking_idx').on(t.bookingId),
    index('payments_ledger_package_sale_idx').on(t.packageSaleId).where(sql`${t.packageSaleId} is not null`),
    index('payments_ledger_occurred_idx').on(t.occurredAt),
  ],
);

/**
 * The whole income / inventory list, kept written: each ledger row's entry (its PaymentDto as JSON text)
 * with its booking's sort keys, maintained by triggers on payments_ledger and bookings (migration 0019),
 * so the whole list is an index scan in its order instead of a join, a sort and 44,000 rows' JSON made
 * per answer (docs/performance.md). Pages and the workbook still read the ledger and bookings.
 */
export const incomeListEntries = pgTable(
  'income_list_entries',
  {
    ledgerId: bigint('ledger_id', { mode: 'number' })
      .primaryKey()
      .references(() => paymentsLedger.id),
    /** The booking the money is for; null for a package sale's money (its day is when the money moved, at the centre). */
    bookingId: integer('booking_id'),
    bookingDate: date('booking_date', { mode: 'string' }).notNull(),
    bookingTimeSlotStart: time('booking_time_slot_start').notNull(),
    entry: text('entry').notNull(),
  },
  (t) => [
    // DESC as the list's ORDER BY says it (nulls first), or the planner would not walk it for that order.
    index('income_list_entries_order_idx').on(
      t.bookingDate.desc().nullsFirst(),
      t.bookingTimeSlotStart.desc().nullsFirst(),
      t.bookingId.desc().nullsFirst(),
      t.ledgerId,
    ),
    index('income_list_entries_booking_idx').on(t.bookingId),
  ],
);

/**
 * Money owed back to a client that no ledger row may claim yet, because it has not moved:
 * - AT_COUNTER: money taken at the desk that is to be handed back at the desk (a client cancelled a
 *   session paid in cash, or a refund was approved of a counter payment). OPEN until an admin records
 *   the hand-over (POST /api/admin/bookings/{id}/record-refund), which writes the ledger row: DONE.
 * - REVIEW: a plain admin cancelled a paid booking and passed the refund to a super admin. OPEN until
 *   approved (the refund runs then: APPROVED) or declined with a reason (DECLINED).
 * One open request per booking and kind.
 */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id),
    kind: text('kind').$type<'AT_COUNTER' | 'REVIEW'>().notNull(),
    /** What is owed (AT_COUNTER) or asked to be reviewed (REVIEW: what was held when it was asked). */
    amountPaise: integer('amount_paise').notNull(),
    reason: text('reason').notNull().default(''),
    /** Who asked: 'client' (Manage booking), 'admin:{id}', or 'worker:…'. */
    requestedBy: text('requested_by').notNull(),
    requestedByAdminId: integer('requested_by_admin_id').references(() => adminUsers.id),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    status: text('status').$type<'OPEN' | 'DONE' | 'APPROVED' | 'DECLINED'>().notNull().default('OPEN'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedByAdminId: integer('resolved_by_admin_id').references(() => adminUsers.id),
    resolutionNote: text('resolution_note'),
  },
  (t) => [
    check('refund_requests_kind_check', sql`${t.kind} in ('AT_COUNTER', 'REVIEW')`),
    check('refund_requests_status_check', sql`${t.status} in ('OPEN', 'DONE', 'APPROVED', 'DECLINED')`),
    check('refund_requests_amount_check', sql`${t.amountPaise} > 0`),
    check('refund_requests_resolved_check', sql`(${t.status} = 'OPEN') = (${t.resolvedAt} is null)`),
    uniqueIndex('refund_requests_open_uq').on(t.bookingId, t.kind).where(sql`${t.status} = 'OPEN'`),
    index('refund_requests_open_idx').on(t.requestedAt).where(sql`${t.status} = 'OPEN'`),
  ],
);

/**
 * A refund through the payments provider, written before the provider is asked (issue 32): no
 * transaction is held open across the provider's call. Phase 1 (the booking's row locked, every rule
 * checked) writes the intent and commits; phase 2 asks the provider for each part, under its
 * idempotency key, with no transaction open; phase 3 (the booking locked again) records each refund
 * in the ledger, closes the intent (DONE) and applies `action`, what the caller does once the money
 * is back (cancel the booking, approve a request, tell the client). A refusal closes it FAILED with
 * nothing applied. One left OPEN by a process that died is finished by the payments.reconcile job: the
 * same keys answer the same refunds. One open intent per booking: a second change to its money waits
 * for the first.
 */
export const refundIntents = pgTable(
  'refund_intents',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The booking whose money goes back; null for a package sale's refund (package_sale_id). */
    bookingId: integer('booking_id').references(() => bookings.id),
    packageSaleId: integer('package_sale_id').references((): AnyPgColumn => packageSales.id),
    /** All of the refund; counterPaise of it is money taken at the counter, due there once the intent is DONE. */
    amountPaise: integer('amount_paise').notNull(),
    counterPaise: integer('counter_paise').notNull().default(0),
    /** What goes back through the provider, payment by payment, each under its idempotency key; the provider's answers once DONE. */
    parts: jsonb('parts').$type<RefundIntentPart[]>().notNull(),
    reason: text('reason'),
    /** Who decided it, as refund_requests keeps it: 'client', 'admin:{id}', 'worker:…'. */
    requestedBy: text('requested_by').notNull(),
    byAdminId: integer('by_admin_id').references(() => adminUsers.id),
    /** What the caller does once the money is back (shared/core/services/refund.service.ts, RefundAction). */
    action: jsonb('action').$type<{ kind: string } & Record<string, unknown>>().notNull(),
    status: text('status').$type<'OPEN' | 'DONE' | 'FAILED'>().notNull().default('OPEN'),
    /** Why a FAILED one failed (the provider's words). */
    failure: text('failure'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('refund_intents_status_check', sql`${t.status} in ('OPEN', 'DONE', 'FAILED')`),
    check('refund_intents_amount_check', sql`${t.amountPaise} > 0 and ${t.counterPaise} >= 0 and ${t.counterPaise} < ${t.amountPaise}`),
    check('refund_intents_finished_check', sql`(${t.status} = 'OPEN') = (${t.finishedAt} is null)`),
    check('refund_intents_owner_check', sql`(${t.bookingId} is null) <> (${t.packageSaleId} is null)`),
    uniqueIndex('refund_intents_open_uq').on(t.bookingId).where(sql`${t.status} = 'OPEN'`),
    uniqueIndex('refund_intents_open_sale_uq').on(t.packageSaleId).where(sql`${t.status} = 'OPEN' and ${t.packageSaleId} is not null`),
    index('refund_intents_open_idx').on(t.createdAt).where(sql`${t.status} = 'OPEN'`),
  ],
);

/** One payment's part of a refund intent: asked of the provider under `idempotencyKey`; its answer once the intent is DONE. */
export type RefundIntentPart = {
  provider: 'razorpay' | 'sandbox';
  paymentId: string;
  amountPaise: number;
  idempotencyKey: string;
  refundId?: string;
  status?: 'pending' | 'processed';
};

/**
 * Photos uploaded by the centre (issue 32): kept in PostgreSQL, not on one machine's disk, so every API
 * replica and every new container serves them and a backup holds them. The key is the path under the
 * image routes (`therapists/upload-3-…webp`, `locations/1.png`); the demo centre's photos ship with the
 * code (api/images, read-only) and are served from there when no row has their key.
 */
export const photos = pgTable('photos', {
  key: text('key').primaryKey(),
  content: bytea('content').notNull(),
  contentType: text('content_type').notNull(),
  /** A hash of the content: the answer's ETag. */
  etag: text('etag').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The local sandbox provider's refunds (what Razorpay keeps on its side), one per idempotency key. */
export const sandboxRefunds = pgTable('sandbox_refunds', {
  id: text('id').primaryKey(),
  paymentId: text('payment_id').notNull(),
  amountPaise: integer('amount_paise').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  notes: jsonb('notes').$type<Record<string, string>>().notNull().default({}),
  status: text('status').$type<'processed' | 'failed'>().notNull().default('processed'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The local sandbox payments provider's own records (what Razorpay would keep on its side). */
export const sandboxPaymentLinks = pgTable('sandbox_payment_links', {
  id: text('id').primaryKey(),
  referenceId: text('reference_id').notNull(),
  amountPaise: integer('amount_paise').notNull(),
  description: text('description').notNull(),
  customer: jsonb('customer').$type<{ name: string; email: string; contact: string }>().notNull(),
  callbackUrl: text('callback_url').notNull(),
  expireBy: timestamp('expire_by', { withTimezone: true }).notNull(),
  status: text('status').$type<'created' | 'paid' | 'cancelled' | 'expired'>().notNull().default('created'),
  paymentId: text('payment_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every payment link a booking has ever had (a trigger on bookings writes it whenever the booking's
 * link changes), so a payment on a link that was replaced or cancelled can still be found and recorded.
 */
export const paymentLinks = pgTable(
  'payment_links',
  {
    linkId: text('link_id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_links_booking_idx').on(t.bookingId), index('payment_links_first_seen_idx').on(t.firstSeenAt)],
);

export type DiscrepancyKind = 'MISSING_CAPTURE' | 'MISSING_REFUND' | 'AMOUNT_MISMATCH' | 'NOT_AT_PROVIDER';

/**
 * What the reconciliation found where the ledger and the provider disagree: one open row per
 * (kind, payment, refund) however often it is seen, closed when they agree again or a super admin
 * marks it reviewed. The super admin's "Payments needing attention" list.
 */
export const paymentDiscrepancies = pgTable(
  'payment_discrepancies',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').$type<DiscrepancyKind>().notNull(),
    provider: text('provider').$type<'razorpay' | 'sandbox'>().notNull(),
    bookingId: integer('booking_id').references(() => bookings.id),
    paymentId: text('payment_id').notNull(),
    /** The refund concerned; '' when the discrepancy is about the payment itself. */
    refundId: text('refund_id').notNull().default(''),
    ledgerPaise: integer('ledger_paise'),
    providerPaise: integer('provider_paise'),
    detail: text('detail').notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolution: text('resolution'),
    resolvedByAdminId: integer('resolved_by_admin_id').references(() => adminUsers.id),
  },
  (t) => [
    check('payment_discrepancies_kind_check', sql`${t.kind} in ('MISSING_CAPTURE', 'MISSING_REFUND', 'AMOUNT_MISMATCH', 'NOT_AT_PROVIDER')`),
    check('payment_discrepancies_resolved_check', sql`(${t.resolvedAt} is null) = (${t.resolution} is null)`),
    uniqueIndex('payment_discrepancies_open_uq').on(t.kind, t.provider, t.paymentId, t.refundId).where(sql`${t.resolvedAt} is null`),
    index('payment_discrepancies_detected_idx').on(t.detectedAt),
  ],
);

/**
 * Every WhatsApp message the worker sent (or tried to), one row per booking and kind: the Graph API's
 * message id (wamid) and the latest delivery status its webhooks reported. No phone number or text.
 */
export const whatsappMessages = pgTable(
  'whatsapp_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id),
    /** What was sent, e.g. REMINDER; with the session's start, so a moved session gets its own reminder. */
    kind: text('kind').notNull(),
    sessionStartsAt: timestamp('session_starts_at', { withTimezone: true }).notNull(),
    wamid: text('wamid'),
    /** PENDING, SENT, DELIVERED, READ, FAILED, or FELL_BACK_TO_EMAIL. */
    status: text('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    ...timestamps,
  },
  (t) => [uniqueIndex('whatsapp_messages_booking_kind_uq').on(t.bookingId, t.kind, t.sessionStartsAt), uniqueIndex('whatsapp_messages_wamid_uq').on(t.wamid)],
);

/** Each delivery status Meta's webhook reported, once (webhooks repeat). */
export const whatsappStatusEvents = pgTable(
  'whatsapp_status_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    wamid: text('wamid').notNull(),
    status: text('status').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    errorCode: integer('error_code'),
    errorTitle: text('error_title'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('whatsapp_status_events_uq').on(t.wamid, t.status, t.occurredAt)],
);

/**
 * A job that failed for good: its last attempt failed (or the outbox relay could not queue it), so
 * nothing will try it again by itself. One row per job (queue and job id), which the worker writes
 * once however often the job was tried; a job that fails for good again after a retry reopens its
 * row. The summary says what failed in words, never with a client's personal data. booking_id has no
 * foreign key: a job may name a booking that does not exist, and that failure must still be recorded.
 */
export const jobFailures = pgTable(
  'job_failures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    queue: text('queue').notNull(),
    jobName: text('job_name').notNull(),
    jobId: text('job_id').notNull(),
    bookingId: integer('booking_id'),
    summary: text('summary').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** Null on a resolved row when a later retry of the job succeeded. */
    resolvedByAdminId: integer('resolved_by_admin_id').references(() => adminUsers.id),
  },
  (t) => [
    uniqueIndex('job_failures_job_uq').on(t.queue, t.jobId),
    // The dashboard's list: open ones first, newest first.
    index('job_failures_list_idx').on(sql`(${t.resolvedAt} is null) desc`, t.failedAt.desc(), t.id.desc()),
  ],
);

/**
 * The waitlist (issue 34): a client waiting for a therapist's slot in a date range, at the times of day
 * they chose (WAITLIST_TIMES, shared/domain/waitlist.ts; none: any time). First come, first offered
 * (joined_at, then id). `status`: waiting; offered (a slot is held for them now: an open
 * waitlist_offers row); booked (they claimed an offer); left (they left the list from their link).
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    therapistId: integer('therapist_id')
      .notNull()
      .references(() => therapists.id),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    times: text('times').array().notNull().default(sql`'{}'::text[]`),
    clientFullName: text('client_full_name').notNull(),
    clientEmail: text('client_email').notNull(),
    clientMobile: text('client_mobile').notNull(),
    /** Keyed hash of the address the client joined from, for the per-address limit (as bookings keep it). */
    clientAddressHash: text('client_address_hash'),
    /** When the client ticked the WhatsApp box on joining (WAITLIST_WHATSAPP_CONSENT), and the words they agreed to. */
    whatsappOptInAt: timestamp('whatsapp_opt_in_at', { withTimezone: true }),
    whatsappConsentText: text('whatsapp_consent_text'),
    status: text('status').$type<'waiting' | 'offered' | 'booked' | 'left'>().notNull().default('waiting'),
    /** SHA-256 of the entry's private link token (waitlistTokenFor); the token is derived, never stored. */
    tokenHash: text('token_hash'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
    /** When the client left the list, or claimed an offer. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    check('waitlist_entries_status_check', sql`${t.status} in ('waiting', 'offered', 'booked', 'left')`),
    check('waitlist_entries_range_check', sql`${t.fromDate} <= ${t.toDate}`),
    check('waitlist_entries_times_check', sql`${t.times} <@ array['morning', 'afternoon', 'evening']::text[]`),
    uniqueIndex('waitlist_entries_token_uq').on(t.tokenHash),
    // Who is next for a therapist's freed slot: the live entries in the order they joined.
    index('waitlist_entries_queue_idx').on(t.therapistId, t.joinedAt, t.id).where(sql`${t.status} in ('waiting', 'offered')`),
    // The per-client limit counts live entries by e-mail and by mobile; the per-address one recent joins.
    index('waitlist_entries_email_idx').on(t.clientEmail).where(sql`${t.status} in ('waiting', 'offered')`),
    index('waitlist_entries_mobile_idx').on(t.clientMobile).where(sql`${t.status} in ('waiting', 'offered')`),
    index('waitlist_entries_address_idx').on(t.clientAddressHash, t.joinedAt).where(sql`${t.clientAddressHash} is not null`),
  ],
);

/**
 * A freed slot offered to one waitlist entry: the slot is held by `booking_id`, a booking row of the
 * client's (INITIATED, its hold ending at expires_at) written through the one checker and the live-slot
 * index, so nobody else is offered or can book it. `outcome`: null while open; claimed (the client took
 * it: the same row became their booking); lapsed (unclaimed by expires_at, or its hold ended); left
 * (the client left the list). An entry is offered a given slot once.
 */
export const waitlistOffers = pgTable(
  'waitlist_offers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => waitlistEntries.id),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id),
    bookingDate: date('booking_date', { mode: 'string' }).notNull(),
    bookingTimeSlotStart: time('booking_time_slot_start').notNull(),
    offeredAt: timestamp('offered_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    outcome: text('outcome').$type<'claimed' | 'lapsed' | 'left'>(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    check('waitlist_offers_outcome_check', sql`${t.outcome} is null or ${t.outcome} in ('claimed', 'lapsed', 'left')`),
    check('waitlist_offers_settled_check', sql`(${t.outcome} is null) = (${t.settledAt} is null)`),
    uniqueIndex('waitlist_offers_booking_uq').on(t.bookingId),
    uniqueIndex('waitlist_offers_slot_uq').on(t.entryId, t.bookingDate, t.bookingTimeSlotStart),
    // At most one open offer per entry.
    uniqueIndex('waitlist_offers_open_uq').on(t.entryId).where(sql`${t.outcome} is null`),
  ],
);

/** The session formats a package may cover: the wizard's first step (online, or in person at a centre). */
export type PackageSessionType = 'ONLINE' | 'OFFLINE';

/**
 * A package of sessions a super admin defines (issue 34): so many sessions for one price, used within
 * so many days of the sale. Empty session_types or therapist_ids cover every format or therapist.
 * Inactive packages are sold no more; sales made stay as they are.
 */
export const packages = pgTable(
  'packages',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    sessionsCount: smallint('sessions_count').notNull(),
    pricePaise: integer('price_paise').notNull(),
    validityDays: smallint('validity_days').notNull(),
    sessionTypes: text('session_types').array().$type<PackageSessionType[]>().notNull().default(sql`'{}'::text[]`),
    therapistIds: integer('therapist_ids').array().notNull().default(sql`'{}'::integer[]`),
    isActive: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('packages_name_uq').on(sql`lower(${t.name})`),
    check('packages_sessions_check', sql`${t.sessionsCount} between 1 and 100`),
    check('packages_price_check', sql`${t.pricePaise} > 0`),
    check('packages_validity_check', sql`${t.validityDays} between 1 and 1095`),
    check('packages_session_types_check', sql`${t.sessionTypes} <@ '{ONLINE,OFFLINE}'::text[]`),
  ],
);

/**
 * One package sold to one client, at the desk or online. What was sold is kept with the sale (sessions,
 * price), so editing the package later changes no sale. An online sale waits for its payment
 * (AWAITING_PAYMENT) and is PAID, its credits sold, only when the provider reports the payment captured;
 * one whose link ended unpaid is LAPSED. The client's private link is keyed on the sale's id (as the
 * Manage booking link is): only its SHA-256 is kept.
 */
export const packageSales = pgTable(
  'package_sales',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    packageId: integer('package_id')
      .notNull()
      .references(() => packages.id),
    clientFullName: text('client_full_name').notNull(),
    clientEmail: text('client_email').notNull(),
    clientMobile: text('client_mobile').notNull(),
    sessionsTotal: smallint('sessions_total').notNull(),
    pricePaise: integer('price_paise').notNull(),
    validityDays: smallint('validity_days').notNull(),
    channel: text('channel').$type<'DESK' | 'ONLINE'>().notNull(),
    /** How it was paid: the desk's method, or the provider's method name once an online payment is captured. */
    paymentMethod: text('payment_method').$type<'UPI' | 'CARD' | 'NETBANKING' | 'WALLET' | 'CASH' | 'BANK_TRANSFER' | 'OTHER'>(),
    status: text('status').$type<'AWAITING_PAYMENT' | 'PAID' | 'LAPSED'>().notNull(),
    soldAt: timestamp('sold_at', { withTimezone: true }),
    /** The last day (at the centre) a credit may be used for a session; credits left after it expire. */
    expiresOn: date('expires_on', { mode: 'string' }),
    tokenHash: text('token_hash'),
    razorpayPaymentLinkId: text('razorpay_payment_link_id'),
    paymentLinkUrl: text('payment_link_url'),
    /** The client's idempotency key for an online purchase: a retried request finds the sale it made. */
    requestKey: text('request_key'),
    /** The keyed hash of the address an online purchase came from: the hold limits count purchases per address. */
    clientAddressHash: text('client_address_hash'),
    soldByAdminId: integer('sold_by_admin_id').references(() => adminUsers.id),
    expiryReminderSentAt: timestamp('expiry_reminder_sent_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    check('package_sales_channel_check', sql`${t.channel} in ('DESK', 'ONLINE')`),
    check('package_sales_status_check', sql`${t.status} in ('AWAITING_PAYMENT', 'PAID', 'LAPSED')`),
    check('package_sales_paid_check', sql`(${t.status} = 'PAID') = (${t.soldAt} is not null and ${t.expiresOn} is not null)`),
    check('package_sales_price_check', sql`${t.pricePaise} > 0 and ${t.sessionsTotal} > 0`),
    uniqueIndex('package_sales_token_uq').on(t.tokenHash),
    uniqueIndex('package_sales_link_uq').on(t.razorpayPaymentLinkId),
    uniqueIndex('package_sales_request_key_uq').on(t.requestKey),
    index('package_sales_expires_idx').on(t.expiresOn).where(sql`${t.status} = 'PAID'`),
    index('package_sales_awaiting_idx').on(t.createdAt).where(sql`${t.status} = 'AWAITING_PAYMENT'`),
    index('package_sales_address_idx').on(t.clientAddressHash, t.createdAt).where(sql`${t.clientAddressHash} is not null`),
    index('package_sales_awaiting_email_idx').on(t.clientEmail).where(sql`${t.status} = 'AWAITING_PAYMENT'`),
    index('package_sales_awaiting_mobile_idx').on(t.clientMobile).where(sql`${t.status} = 'AWAITING_PAYMENT'`),
  ],
);

export type PackageCreditKind = 'sold' | 'used' | 'returned' | 'expired' | 'refunded';

/**
 * The credits of a sale, append-only (a trigger refuses updates and deletes): each row moves `sessions`
 * credits (sold +n; used -1 and returned +1 with their booking; expired and refunded -n, what was left).
 * Credits left are the sum, never below zero (a trigger checks it under the sale's row lock). The
 * partial unique indexes make each event happen once: one sale, one use and one return per booking,
 * one expiry and one refund per sale.
 */
export const packageCredits = pgTable(
  'package_credits',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    saleId: integer('sale_id')
      .notNull()
      .references(() => packageSales.id),
    kind: text('kind').$type<PackageCreditKind>().notNull(),
    sessions: smallint('sessions').notNull(),
    bookingId: integer('booking_id').references(() => bookings.id),
    /** Who: 'admin:{id}', 'client', 'worker:…'. */
    actor: text('actor').notNull(),
    byAdminId: integer('by_admin_id').references(() => adminUsers.id),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    check('package_credits_kind_check', sql`${t.kind} in ('sold', 'used', 'returned', 'expired', 'refunded')`),
    check(
      'package_credits_sessions_check',
      sql`case ${t.kind} when 'sold' then ${t.sessions} > 0 when 'used' then ${t.sessions} = -1 when 'returned' then ${t.sessions} = 1 else ${t.sessions} < 0 end`,
    ),
    check('package_credits_booking_check', sql`(${t.kind} in ('used', 'returned')) = (${t.bookingId} is not null)`),
    index('package_credits_sale_idx').on(t.saleId, t.id),
    uniqueIndex('package_credits_sold_uq').on(t.saleId).where(sql`${t.kind} = 'sold'`),
    uniqueIndex('package_credits_expired_uq').on(t.saleId).where(sql`${t.kind} = 'expired'`),
    uniqueIndex('package_credits_refunded_uq').on(t.saleId).where(sql`${t.kind} = 'refunded'`),
    uniqueIndex('package_credits_used_uq').on(t.bookingId).where(sql`${t.kind} = 'used'`),
    uniqueIndex('package_credits_returned_uq').on(t.bookingId).where(sql`${t.kind} = 'returned'`),
  ],
);
