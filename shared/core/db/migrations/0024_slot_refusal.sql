-- "Is this slot bookable?" answered in one place (issue 33): until this migration the public batch
-- (book_batch, 0018) decided it here, and manual bookings, blocks and reschedules each decided it again
-- in TypeScript, so a rule added to one silently missed the others. slot_refusal is the one checker:
-- book_batch calls it for each booking of its batch, and slot-check.repository.ts for the services
-- (manual bookings, blocks, reschedules, and whatever books next), one candidate or many in one call.
-- It is a STABLE SQL function returning a table, so PostgreSQL inlines it into the calling statement
-- (planned as a lateral subquery of joins, no function call per row): the batch stays one statement.
--
-- The caller gives the candidate and the terms it books under (SlotWindow, shared/domain/slots.ts):
-- today and now at the centre, worked out by shared/domain/time.ts (a slot that starts at this very
-- minute has passed), the window's last day and whether it closes on Sundays, and the earliest start it
-- accepts at the centre's wall clock (a reschedule's notice), null for none. A null type, location or
-- service asks nothing of it.
--
-- Answers one row: `refusal`, the first reason in this order that the slot cannot be booked (null when
-- it can), and `holder`, what already holds the slot live ('block' for an admin block, 'booking' for a
-- client's, null when free). Each path words the codes (slot-check.repository.ts lists them; a test
-- holds the list to this function). Who holds a slot is only read here: the live-slot index
-- bookings_live_slot_uq decides every race when the row is written.
CREATE FUNCTION slot_refusal(
  asked_therapist_id integer, asked_type smallint, asked_location_id integer, asked_date date, asked_start time,
  asked_service_id integer, today date, now_time time, last_date date, sundays_closed boolean, earliest timestamp
) RETURNS TABLE (refusal text, holder text) LANGUAGE sql STABLE AS $$
  select
    case
      -- When: the path's window, the centre's clock and the notice it needs.
      when sundays_closed and extract(dow from asked_date) = 0 then 'sunday'
      when asked_date < today then 'before_window'
      when asked_date > last_date then 'after_window'
      when asked_date = today and asked_start <= now_time then 'passed'
      when asked_date + asked_start < earliest then 'notice'
      -- Who and where: an active therapist, of the session's type, at the centre asked for.
      when t.id is null then 'therapist'
      when t.type <> asked_type then 'therapist_type'
      when asked_location_id is not null and t.location_id is distinct from asked_location_id then 'location'
      -- The weekly schedule: a slot starting then, not blocked by it, open, worked on this weekday.
      when s.id is null then 'not_on_schedule'
      when s.admin_blocked then 'schedule_blocked'
      when not s.is_available or not (extract(dow from asked_date)::smallint = any(s.weekdays)) then 'off_schedule'
      -- The day: a centre holiday or the therapist's time off (migration 0011).
      when exists (select 1 from centre_holidays h where h.holiday_date = asked_date)
        or exists (select 1 from therapist_time_off o where o.therapist_id = t.id and asked_date between o.from_date and o.to_date) then 'day_closed'
      when asked_service_id is not null and not exists (select 1 from services v where v.id = asked_service_id) then 'service'
    end,
    -- The predicate of bookings_live_slot_uq (live-booking.ts, LIVE_BOOKING_SQL; the test holds them equal).
    (select case when b.booking_type = 'ADMIN_BLOCK' then 'block' else 'booking' end
       from bookings b
       where b.therapist_id = asked_therapist_id and b.booking_date = asked_date and b.booking_time_slot_start = asked_start
         and not cancelled and payment_status not in ('FAILED', 'CANCELLED')
       limit 1)
  from (select asked_therapist_id as id) as asked
  left join therapists t on t.id = asked.id and t.is_active
  left join availability_slots s on s.therapist_id = t.id and s.start_time = asked_start
$$;
--> statement-breakpoint
-- book_batch (0018) with its checks made by slot_refusal: each booking of the batch now carries the terms
-- it books under (today, now_time, last_date, sundays_closed: the client's window for a public booking,
-- the admin's for an admin's), so a date outside the window or a slot already passed is refused here as
-- every other path refuses it. Who holds the slot is not asked of slot_refusal: ON CONFLICT on the
-- live-slot index decides it in the same statement (its holder column is never read, so the planner never
-- computes it). Otherwise as 0018 describes.
CREATE OR REPLACE FUNCTION book_batch(jsonb, integer, bigint[])
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
        therapist_type smallint, followups jsonb, asked_at timestamptz, hold_limit_client int, hold_limit_address int,
        today date, now_time time, last_date date, sundays_closed boolean)
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
        coalesce(
          c.refusal,
          case
            when h.client_holds > i.hold_limit_client then 'holds_client'
            when h.address_holds > i.hold_limit_address then 'holds_address'
          end
        ) as refusal,
        -- Only the address's wait: when a client's own hold ends would tell a stranger probing with
        -- someone's e-mail or mobile when that person booked.
        case when h.address_holds > i.hold_limit_address then h.address_retry end as retry_after
      from input i
      join holds h on h.n = i.n
      cross join lateral slot_refusal(i.therapist_id, i.therapist_type, i.location_id, i.booking_date, i.booking_time_slot_start,
        i.service_id, i.today, i.now_time, i.last_date, i.sundays_closed, null) as c
      -- The price: slot_refusal has refused a booking whose therapist is not active.
      left join therapists t on t.id = i.therapist_id and t.is_active
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
