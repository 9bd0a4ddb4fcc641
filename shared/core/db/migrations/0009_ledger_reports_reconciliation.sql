CREATE TABLE "payment_discrepancies" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_discrepancies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"booking_id" integer,
	"payment_id" text NOT NULL,
	"refund_id" text DEFAULT '' NOT NULL,
	"ledger_paise" integer,
	"provider_paise" integer,
	"detail" text NOT NULL,
	"detected_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	"resolved_by_admin_id" integer,
	CONSTRAINT "payment_discrepancies_kind_check" CHECK ("payment_discrepancies"."kind" in ('MISSING_CAPTURE', 'MISSING_REFUND', 'AMOUNT_MISMATCH', 'NOT_AT_PROVIDER')),
	CONSTRAINT "payment_discrepancies_resolved_check" CHECK (("payment_discrepancies"."resolved_at" is null) = ("payment_discrepancies"."resolution" is null))
);
--> statement-breakpoint
CREATE TABLE "payment_links" (
	"link_id" text PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_discrepancies" ADD CONSTRAINT "payment_discrepancies_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_discrepancies" ADD CONSTRAINT "payment_discrepancies_resolved_by_admin_id_admin_users_id_fk" FOREIGN KEY ("resolved_by_admin_id") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_discrepancies_open_uq" ON "payment_discrepancies" USING btree ("kind","provider","payment_id","refund_id") WHERE "payment_discrepancies"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "payment_discrepancies_detected_idx" ON "payment_discrepancies" USING btree ("detected_at");--> statement-breakpoint
CREATE INDEX "payment_links_booking_idx" ON "payment_links" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "payment_links_first_seen_idx" ON "payment_links" USING btree ("first_seen_at");--> statement-breakpoint
-- Every link a booking is given is remembered, whichever code path gives it (link job, shareable link,
-- an admin's update-payment-link), so reconciliation can still ask about a link that was replaced.
CREATE OR REPLACE FUNCTION payment_links_remember() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payment_links (link_id, booking_id) VALUES (NEW.razorpay_payment_link_id, NEW.id) ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER bookings_payment_links_remember
AFTER INSERT OR UPDATE OF razorpay_payment_link_id ON bookings
FOR EACH ROW WHEN (NEW.razorpay_payment_link_id IS NOT NULL)
EXECUTE FUNCTION payment_links_remember();
--> statement-breakpoint
INSERT INTO payment_links (link_id, booking_id, first_seen_at)
SELECT razorpay_payment_link_id, id, updated_at FROM bookings WHERE razorpay_payment_link_id IS NOT NULL
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO payment_links (link_id, booking_id, first_seen_at)
SELECT link_id, booking_id, occurred_at FROM payments_ledger WHERE link_id IS NOT NULL
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Reports read money from the ledger, so money recorded for a booking makes its day's nightly aggregate
-- stale, as a change to the booking does. The booking row is locked first (NO KEY UPDATE conflicts with
-- the FOR SHARE that aggregateDay takes on the day's bookings): either the aggregation waits for this
-- row to commit and counts it, or this waits for the aggregation and drops what it wrote. BEFORE, so the
-- lock is taken ahead of the foreign key's KEY SHARE and two rows for one booking cannot deadlock.
CREATE OR REPLACE FUNCTION payments_ledger_report_invalidate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  day date;
BEGIN
  SELECT booking_date INTO day FROM bookings WHERE id = NEW.booking_id FOR NO KEY UPDATE;
  DELETE FROM report_daily WHERE report_date = day;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER payments_ledger_report_invalidate
BEFORE INSERT ON payments_ledger
FOR EACH ROW EXECUTE FUNCTION payments_ledger_report_invalidate();
--> statement-breakpoint
-- The ledger is append-only: a recorded rupee is corrected by another row, never by editing this one.
CREATE OR REPLACE FUNCTION payments_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'payments_ledger is append-only: record a correcting row instead';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER payments_ledger_append_only
BEFORE UPDATE OR DELETE ON payments_ledger
FOR EACH ROW EXECUTE FUNCTION payments_ledger_append_only();
