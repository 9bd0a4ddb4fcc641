-- NOTIFY takes a database-wide lock at commit and holds it until the commit record is on disk, so
-- transactions that notify commit one after another instead of sharing a WAL flush. The public
-- booking path (the busiest writer) therefore announces its insert itself, right after commit, in a
-- notify-only transaction that need not wait for the disk; it marks its statement with the
-- transaction-local setting booking.catalog_notify = 'after_commit'. Every other change, by any
-- process, still announces itself from here.
CREATE OR REPLACE FUNCTION catalog_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME IN ('bookings', 'availability_slots') THEN
    IF TG_OP = 'INSERT' AND TG_TABLE_NAME = 'bookings'
       AND current_setting('booking.catalog_notify', true) = 'after_commit' THEN
      RETURN NULL;
    END IF;
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('catalog_changed', 'therapist:' || OLD.therapist_id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('catalog_changed', 'therapist:' || NEW.therapist_id);
    END IF;
  ELSE
    PERFORM pg_notify('catalog_changed', 'all');
  END IF;
  RETURN NULL;
END;
$$;
