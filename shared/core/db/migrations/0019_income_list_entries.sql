-- The whole income / inventory list, kept written (issue 22). Answering it joined 44,000 ledger rows to
-- their bookings, sorted them (spilling to disk) and wrote each one's JSON: 125 ms of PostgreSQL per
-- answer, most of a year's list's time. Here each ledger row's entry is written once, when the row is
-- recorded, and again only when its booking's name, mobile, transaction id, date or time changes; the
-- list is then an index scan in its order (15 ms). The ledger stays append-only: this is a table beside
-- it, not columns on it. tests/integration/income-paging.test.ts holds every entry, after each kind of
-- change, to JSON.stringify of the PaymentDto that income.service.ts maps from the live join.
CREATE TABLE "income_list_entries" (
	"ledger_id" bigint PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"booking_date" date NOT NULL,
	"booking_time_slot_start" time NOT NULL,
	"entry" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "income_list_entries" ADD CONSTRAINT "income_list_entries_ledger_id_payments_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."payments_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "income_list_entries_order_idx" ON "income_list_entries" USING btree ("booking_date" DESC NULLS FIRST,"booking_time_slot_start" DESC NULLS FIRST,"booking_id" DESC NULLS FIRST,"ledger_id");--> statement-breakpoint
CREATE INDEX "income_list_entries_booking_idx" ON "income_list_entries" USING btree ("booking_id");--> statement-breakpoint
-- A ledger row's PaymentDto (income.service.ts, mapPayment) as JSON.stringify writes it: the same keys
-- in the same order, text escaped by to_json as JSON.stringify escapes it, paise / 100 printed by
-- trim_scale as JavaScript prints the number, the time as toISOString() writes it.
CREATE FUNCTION income_entry_json(
  amount_paise integer, kind text, method text, payment_id text, refund_id text, reason text, occurred_at timestamptz,
  booking_id integer, payment_transaction_id text, client_full_name text, client_mobile text, booking_date date
) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  select '{"amount":' || trim_scale(amount_paise / 100.0)
      || ',"payment_transaction_id":' || coalesce(to_json(payment_transaction_id)::text, 'null')
      || ',"client_name":' || to_json(client_full_name)::text
      || ',"client_phone":' || to_json(client_mobile)::text
      || ',"booking_date":"' || to_char(booking_date, 'YYYY-MM-DD')
      || '","booking_id":' || booking_id
      || ',"kind":"' || case kind when 'capture' then 'PAYMENT' else 'REFUND' end
      || '","method":' || to_json(method)::text
      || ',"provider_reference":' || to_json(coalesce(refund_id, payment_id))::text
      || ',"recorded_at":"' || to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      || '","reason":' || coalesce(to_json(reason)::text, 'null') || '}'
$$;
--> statement-breakpoint
-- Ledger rows recorded by one statement get their entries from one join (the bench loads a year in one).
-- A booking changed at the same moment cannot leave an entry stale: payments_ledger_report_invalidate
-- (0009) locks the booking's row before each ledger row goes in, so a rename either waits for this
-- insert to commit (and its trigger below then finds the entry) or commits first (and this join, a
-- statement of its own, reads the new name).
CREATE FUNCTION income_list_entries_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO income_list_entries (ledger_id, booking_id, booking_date, booking_time_slot_start, entry)
  SELECT l.id, b.id, b.booking_date, b.booking_time_slot_start,
         income_entry_json(l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.occurred_at,
                           b.id, b.payment_transaction_id, b.client_full_name, b.client_mobile, b.booking_date)
  FROM recorded l JOIN bookings b ON b.id = l.booking_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER income_list_entries_add
AFTER INSERT ON payments_ledger
REFERENCING NEW TABLE AS recorded
FOR EACH STATEMENT EXECUTE FUNCTION income_list_entries_add();
--> statement-breakpoint
-- A booking renamed, its mobile or transaction id changed, or moved to another date or time: its
-- entries follow. Any other change to a booking (its status, a hold ending) skips this by the WHEN.
CREATE FUNCTION income_list_entries_follow_booking() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE income_list_entries e
  SET booking_date = NEW.booking_date,
      booking_time_slot_start = NEW.booking_time_slot_start,
      entry = income_entry_json(l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.occurred_at,
                                NEW.id, NEW.payment_transaction_id, NEW.client_full_name, NEW.client_mobile, NEW.booking_date)
  FROM payments_ledger l
  WHERE e.booking_id = NEW.id AND l.id = e.ledger_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER income_list_entries_follow_booking
AFTER UPDATE OF client_full_name, client_mobile, payment_transaction_id, booking_date, booking_time_slot_start ON bookings
FOR EACH ROW
WHEN (OLD.client_full_name IS DISTINCT FROM NEW.client_full_name
   OR OLD.client_mobile IS DISTINCT FROM NEW.client_mobile
   OR OLD.payment_transaction_id IS DISTINCT FROM NEW.payment_transaction_id
   OR OLD.booking_date IS DISTINCT FROM NEW.booking_date
   OR OLD.booking_time_slot_start IS DISTINCT FROM NEW.booking_time_slot_start)
EXECUTE FUNCTION income_list_entries_follow_booking();
--> statement-breakpoint
-- The ledger recorded so far.
INSERT INTO income_list_entries (ledger_id, booking_id, booking_date, booking_time_slot_start, entry)
SELECT l.id, b.id, b.booking_date, b.booking_time_slot_start,
       income_entry_json(l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.occurred_at,
                         b.id, b.payment_transaction_id, b.client_full_name, b.client_mobile, b.booking_date)
FROM payments_ledger l JOIN bookings b ON b.id = l.booking_id;
