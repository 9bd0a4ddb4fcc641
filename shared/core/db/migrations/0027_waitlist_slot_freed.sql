-- "A slot frees" for the waitlist (issue 34), decided in one place: whatever frees a live booking's
-- slot (a client's or the desk's cancel, a move or reschedule, an unpaid hold ending, an unblock, a
-- waitlist offer lapsing, a row deleted) changes the bookings row, and this trigger sees it in the same
-- transaction. When someone waits for that therapist on that date, it writes a waitlist.slot-freed job
-- into the outbox (committed with the change, or not at all; the worker's job offers the slot to the
-- first in line). No cancel path calls the waitlist itself.
--
-- Live is the predicate of bookings_live_slot_uq (live-booking.ts, LIVE_BOOKING_SQL; the waitlist test
-- holds them equal). The job's queue and name are the JOBS map's (jobs.ts; the test holds them equal);
-- its id names the slot and the transaction, so a transaction that frees a slot twice writes one job.
-- available_at is the change's own stamp (the app's clock, as enqueueInTx stamps its jobs), never
-- later than the database's clock.
CREATE FUNCTION waitlist_slot_freed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_at timestamptz := CASE WHEN TG_OP = 'DELETE' THEN OLD.updated_at ELSE NEW.updated_at END;
BEGIN
  IF EXISTS (
    SELECT 1 FROM waitlist_entries e
    WHERE e.therapist_id = OLD.therapist_id AND e.status IN ('waiting', 'offered')
      AND OLD.booking_date BETWEEN e.from_date AND e.to_date
  ) THEN
    INSERT INTO outbox (queue, job_name, job_id, payload, available_at)
    VALUES (
      'payments',
      'waitlist.slot-freed',
      'waitlist-freed.' || OLD.therapist_id || '.' || OLD.booking_date || '.' || to_char(OLD.booking_time_slot_start, 'HH24MI') || '.' || txid_current(),
      jsonb_build_object('therapistId', OLD.therapist_id, 'date', OLD.booking_date::text, 'start', to_char(OLD.booking_time_slot_start, 'HH24:MI')),
      least(now(), coalesce(changed_at, now()))
    )
    ON CONFLICT (queue, job_id) DO NOTHING;
    -- Wakes a listening relay at commit, as enqueueInTx does.
    PERFORM pg_notify('outbox', '');
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A live row that stops being live, or whose slot changes, frees its old slot. The WHEN is checked
-- without calling the function, so the busy paths that free nothing (payments, notes) pay nothing.
CREATE TRIGGER bookings_waitlist_slot_freed AFTER UPDATE ON bookings
FOR EACH ROW WHEN (
  NOT OLD.cancelled AND OLD.payment_status NOT IN ('FAILED', 'CANCELLED')
  AND (NEW.cancelled OR NEW.payment_status IN ('FAILED', 'CANCELLED')
       OR NEW.therapist_id <> OLD.therapist_id OR NEW.booking_date <> OLD.booking_date
       OR NEW.booking_time_slot_start <> OLD.booking_time_slot_start)
)
EXECUTE FUNCTION waitlist_slot_freed();
--> statement-breakpoint
CREATE TRIGGER bookings_waitlist_slot_freed_delete AFTER DELETE ON bookings
FOR EACH ROW WHEN (NOT OLD.cancelled AND OLD.payment_status NOT IN ('FAILED', 'CANCELLED'))
EXECUTE FUNCTION waitlist_slot_freed();
