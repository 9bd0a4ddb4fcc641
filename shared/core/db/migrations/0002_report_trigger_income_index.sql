-- Any change to a booking makes its day's nightly aggregate stale: drop it, so reports read live
-- data for that day until aggregateDay runs again. Whatever process changes the booking.
CREATE OR REPLACE FUNCTION report_daily_invalidate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM report_daily WHERE report_date = OLD.booking_date;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    DELETE FROM report_daily WHERE report_date = NEW.booking_date;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER bookings_report_daily_invalidate
AFTER INSERT OR UPDATE OR DELETE ON bookings
FOR EACH ROW EXECUTE FUNCTION report_daily_invalidate();
--> statement-breakpoint
-- Income and inventory: completed payments, newest booking date first, answered from the index alone.
CREATE INDEX "bookings_income_idx" ON "bookings" USING btree ("booking_date" DESC, "booking_time_slot_start" DESC, "id" DESC)
  INCLUDE ("amount_paise", "payment_transaction_id", "client_full_name", "client_mobile")
  WHERE "payment_status" = 'COMPLETED' AND NOT "cancelled" AND "booking_type" <> 'ADMIN_BLOCK';
