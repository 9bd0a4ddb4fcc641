-- The booking hot path (booking-batch.ts): a batch of new bookings written by one call, in one round
-- trip. Until this migration the app sent the statement below itself, and a batch with hold limits took
-- four round trips (begin, the advisory locks, the statement, commit), each waiting its turn on a busy
-- API's event loop: 12-14 ms a batch where PostgreSQL worked 2 (docs/performance.md). A function is one
-- call, and in READ COMMITTED each statement in it takes a fresh snapshot, so the counts the statement
-- reads include every hold committed by a batch that held one of these locks before us.
-- tests/integration/booking-insert-plan.test.ts holds the statement's columns to the schema, runs it and
-- checks the indexes it uses.
--
-- $1: the batch, a JSON array with one object per booking (the columns of `input` below): `n` is its
--     place in the batch, the bookings columns are as the row will hold them, `therapist_type` is the
--     therapist type the session needs, `asked_at` the app's clock when it was asked for, the hold
--     limits 0 when off, and `followups` the jobs it needs, each with its job id as the parts on either
--     side of the booking id (jobs.ts, BookingJobId) and its payload without bookingId.
-- $2: the minutes of an address's hold window (HOLD_ADDRESS_WINDOW_MINUTES).
-- $3: the advisory lock keys of the clients and addresses whose holds the batch counts (empty when no
--     booking of it has limits), taken in one order so two batches never wait for each other in a circle.
--
-- Per booking it checks the therapist, the template and the service, inserts the rows that pass
-- (priced from the therapist) and writes their jobs to the outbox with the id the insert produced.
-- ON CONFLICT on the live-slot index (the rule that keeps a therapist from being double-booked) turns
-- a slot taken by another booking, in this batch or committed, into a refusal rather than an error
-- that would fail the whole batch; of two in a batch asking for one slot, the first asked gets it.
-- Data-modifying CTEs commit together or not at all, so the outbox guarantee holds. ctx sets
-- booking.catalog_notify before any row is written, so the insert trigger's WHEN skips them: the commit
-- notifies nobody (migrations 0005 and 0006), and the caller announces the change once this returns
-- (db/announce.ts).
--
-- Answers one row per booking: n, refusal (null when written), id (the new booking's), retry_after
-- (seconds until the client's address may hold one more, when that was the refusal).
CREATE FUNCTION book_batch(jsonb, integer, bigint[])
  RETURNS TABLE (n integer, refusal text, id integer, retry_after integer)
  LANGUAGE plpgsql VOLATILE
AS $book_batch$
#variable_conflict use_column
BEGIN
  PERFORM pg_advisory_xact_lock(k) FROM (SELECT k FROM unnest($3) AS k ORDER BY k) AS keys;
  RETURN QUERY
  with input as (
      select * from jsonb_to_recordset($1::jsonb) as x(
        n int,
        therapist_id integer, service_id integer, booking_date date, booking_time_slot_start time,
        booking_type booking_type, location_id integer, client_full_name text, client_email text,
        client_mobile text, client_age smallint, client_state text, client_city text, client_note text,
        session_type session_type, terms_accepted boolean, payment_status payment_status,
        payment_hold_expires_at timestamp with time zone, payment_transaction_id text, admin_confirmed boolean,
        created_by_admin_id integer, booking_token_hash text, client_address_hash text,
        whatsapp_opt_in_at timestamp with time zone, whatsapp_consent_text text,
        therapist_type smallint, followups jsonb, asked_at timestamptz, hold_limit_client int, hold_limit_address int)
    ),
    -- The client's live holds and the address's recent unpaid holds, with those asked earlier in this
    -- batch; only for rows with limits (a batch with limits runs after advisory locks on its clients and
    -- addresses, so the counts cannot race). address_retry: seconds until the address may hold one more.
    -- The client counts read bookings_hold_email_idx and bookings_hold_mobile_idx (0017).
    holds as (
      select i.n,
        case when i.hold_limit_client > 0 then greatest(
          (select count(*) from bookings x where x.hold_email = i.client_email and x.payment_hold_expires_at > i.asked_at)
            + count(*) filter (where i.hold_limit_client > 0) over (partition by i.client_email order by i.n),
          (select count(*) from bookings x where x.hold_mobile = i.client_mobile and x.payment_hold_expires_at > i.asked_at)
            + count(*) filter (where i.hold_limit_client > 0) over (partition by i.client_mobile order by i.n))
        end as client_holds,
        case when i.hold_limit_address > 0 then
          (select count(*) from bookings x where x.client_address_hash = i.client_address_hash
             and x.created_at > now() - make_interval(mins => $2::int) and x.payment_status <> 'COMPLETED')
            + count(*) filter (where i.hold_limit_address > 0) over (partition by i.client_address_hash order by i.n)
        end as address_holds,
        case when i.hold_limit_address > 0 then
          (select ceil(extract(epoch from min(x.created_at) + make_interval(mins => $2::int) - now()))::int from bookings x
            where x.client_address_hash = i.client_address_hash
              and x.created_at > now() - make_interval(mins => $2::int) and x.payment_status <> 'COMPLETED')
        end as address_retry
      from input i
    ),
    ctx as (
      select i.*, t.price_paise, set_config('booking.catalog_notify', 'after_commit', true) as announced_after_commit,
        case
          when t.id is null then 'therapist'
          when t.type <> i.therapist_type then 'therapist_type'
          when i.location_id is not null and t.location_id is distinct from i.location_id then 'location'
          when not coalesce(s.is_available, false) or coalesce(s.admin_blocked, false) then 'slot'
          -- Weekly hours, centre holidays and the therapist's time off (migration 0011).
          when not (extract(dow from i.booking_date)::smallint = any(s.weekdays)) then 'slot'
          when exists (select 1 from centre_holidays ch where ch.holiday_date = i.booking_date)
            or exists (select 1 from therapist_time_off o where o.therapist_id = t.id and i.booking_date between o.from_date and o.to_date) then 'slot'
          when i.service_id is not null and not exists (select 1 from services v where v.id = i.service_id) then 'service'
          when h.client_holds > i.hold_limit_client then 'holds_client'
          when h.address_holds > i.hold_limit_address then 'holds_address'
        end as refusal,
        -- Only the address's wait: when a client's own hold ends would tell a stranger probing with
        -- someone's e-mail or mobile when that person booked.
        case when h.address_holds > i.hold_limit_address then h.address_retry end as retry_after
      from input i
      join holds h on h.n = i.n
      left join therapists t on t.id = i.therapist_id and t.is_active
      left join availability_slots s on s.therapist_id = t.id and s.start_time = i.booking_time_slot_start
    ),
    b as (
      insert into bookings (
        therapist_id, service_id, booking_date, booking_time_slot_start, booking_type, location_id,
        client_full_name, client_email, client_mobile, client_age, client_state, client_city, client_note,
        session_type, terms_accepted, payment_status, payment_hold_expires_at, payment_transaction_id,
        admin_confirmed, created_by_admin_id, booking_token_hash, client_address_hash,
        whatsapp_opt_in_at, whatsapp_consent_text,
        amount_paise)
      select
        ctx.therapist_id, ctx.service_id, ctx.booking_date, ctx.booking_time_slot_start, ctx.booking_type, ctx.location_id,
        ctx.client_full_name, ctx.client_email, ctx.client_mobile, ctx.client_age, ctx.client_state, ctx.client_city, ctx.client_note,
        ctx.session_type, ctx.terms_accepted, ctx.payment_status, ctx.payment_hold_expires_at, ctx.payment_transaction_id,
        ctx.admin_confirmed, ctx.created_by_admin_id, ctx.booking_token_hash, ctx.client_address_hash,
        ctx.whatsapp_opt_in_at, ctx.whatsapp_consent_text,
        -- Never the client's figure: the therapist's price as the centre set it (none set books 0).
        coalesce(ctx.price_paise, 0)
      from ctx where ctx.refusal is null
      -- Every statement takes the slots in one order, so two batches never wait for each other in a circle.
      order by ctx.therapist_id, ctx.booking_date, ctx.booking_time_slot_start, ctx.n
      -- The predicate of bookings_live_slot_uq (live-booking.ts, LIVE_BOOKING_SQL; the test holds them equal).
      on conflict (therapist_id, booking_date, booking_time_slot_start)
        where not cancelled and payment_status not in ('FAILED', 'CANCELLED')
      do nothing
      returning id, therapist_id, booking_date, booking_time_slot_start
    ),
    -- Which booking of the batch each row is: of two asking for the same slot, the first was inserted.
    w as (
      select distinct on (b.id) b.id, ctx.n
      from b join ctx using (therapist_id, booking_date, booking_time_slot_start)
      where ctx.refusal is null
      order by b.id, ctx.n
    ),
    -- Each job of a written booking, its id made of the parts around the booking's new id.
    o as (
      insert into outbox (queue, job_name, job_id, payload, available_at)
      select f.queue, f.job_name, f.id_prefix || w.id || f.id_suffix,
             jsonb_build_object('bookingId', w.id) || f.payload, coalesce(f.available_at, ctx.asked_at)
      from w join ctx on ctx.n = w.n
        cross join jsonb_to_recordset(ctx.followups) as f(queue text, job_name text, id_prefix text, id_suffix text, payload jsonb, available_at timestamptz)
      on conflict (queue, job_id) do nothing
    )
  select ctx.n, coalesce(ctx.refusal, case when w.id is null then 'taken' end) as refusal, w.id, ctx.retry_after
  from ctx left join w on w.n = ctx.n;
END
$book_batch$;
