-- Every API process caches what the public booking pages read (slot offers, booked slots, the
-- catalogue). Any change, by any process, announces itself here so each cache drops what it touched.
CREATE OR REPLACE FUNCTION catalog_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME IN ('bookings', 'availability_slots') THEN
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
--> statement-breakpoint
CREATE TRIGGER bookings_catalog_changed AFTER INSERT OR UPDATE OR DELETE ON bookings
FOR EACH ROW EXECUTE FUNCTION catalog_changed_notify();
--> statement-breakpoint
CREATE TRIGGER availability_slots_catalog_changed AFTER INSERT OR UPDATE OR DELETE ON availability_slots
FOR EACH ROW EXECUTE FUNCTION catalog_changed_notify();
--> statement-breakpoint
CREATE TRIGGER therapists_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON therapists
FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed_notify();
--> statement-breakpoint
CREATE TRIGGER therapist_services_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON therapist_services
FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed_notify();
--> statement-breakpoint
CREATE TRIGGER locations_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON locations
FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed_notify();
--> statement-breakpoint
CREATE TRIGGER services_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON services
FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed_notify();
