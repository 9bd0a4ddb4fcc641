-- Issue 34: a package sale's money (payments_ledger rows with package_sale_id, no booking) is money
-- received, and the income / inventory list holds it as it holds a session's: an entry with
-- booking_id null and package_sale_id set, dated the day the money moved at the centre (time 00:00),
-- the sale's client named. Every entry gets the package_sale_id key (null for a session's money), as
-- PaymentDto (income.service.ts, mapPayment) now writes it.
CREATE FUNCTION income_entry_json(
  amount_paise integer, kind text, method text, payment_id text, refund_id text, reason text, occurred_at timestamptz,
  booking_id integer, package_sale_id integer, payment_transaction_id text, client_full_name text, client_mobile text, booking_date date
) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  select '{"amount":' || trim_scale(amount_paise / 100.0)
      || ',"payment_transaction_id":' || coalesce(to_json(payment_transaction_id)::text, 'null')
      || ',"client_name":' || to_json(client_full_name)::text
      || ',"client_phone":' || to_json(client_mobile)::text
      || ',"booking_date":"' || to_char(booking_date, 'YYYY-MM-DD')
      || '","booking_id":' || coalesce(booking_id::text, 'null')
      || ',"package_sale_id":' || coalesce(package_sale_id::text, 'null')
      || ',"kind":"' || case kind when 'capture' then 'PAYMENT' else 'REFUND' end
      || '","method":' || to_json(method)::text
      || ',"provider_reference":' || to_json(coalesce(refund_id, payment_id))::text
      || ',"recorded_at":"' || to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      || '","reason":' || coalesce(to_json(reason)::text, 'null') || '}'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION income_list_entries_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO income_list_entries (ledger_id, booking_id, booking_date, booking_time_slot_start, entry)
  SELECT l.id, b.id, b.booking_date, b.booking_time_slot_start,
         income_entry_json(l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.occurred_at,
                           b.id, NULL, b.payment_transaction_id, b.client_full_name, b.client_mobile, b.booking_date)
  FROM recorded l JOIN bookings b ON b.id = l.booking_id;
  INSERT INTO income_list_entries (ledger_id, booking_id, booking_date, booking_time_slot_start, entry)
  SELECT l.id, NULL, (l.occurred_at AT TIME ZONE 'Asia/Kolkata')::date, time '00:00',
         income_entry_json(l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.occurred_at,
                           NULL, s.id, NULL, s.client_full_name, s.client_mobile, (l.occurred_at AT TIME ZONE 'Asia/Kolkata')::date)
  FROM recorded l JOIN package_sales s ON s.id = l.package_sale_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION income_list_entries_follow_booking() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE income_list_entries e
  SET booking_date = NEW.booking_date,
      booking_time_slot_start = NEW.booking_time_slot_start,
      entry = income_entry_json(l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.occurred_at,
                                NEW.id, NULL, NEW.payment_transaction_id, NEW.client_full_name, NEW.client_mobile, NEW.booking_date)
  FROM payments_ledger l
  WHERE e.booking_id = NEW.id AND l.id = e.ledger_id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP FUNCTION income_entry_json(integer, text, text, text, text, text, timestamptz, integer, text, text, text, date);
--> statement-breakpoint
-- The entries so far, rewritten with the new key, and the package sales' money recorded so far.
UPDATE income_list_entries e
SET entry = income_entry_json(l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.occurred_at,
                              b.id, NULL, b.payment_transaction_id, b.client_full_name, b.client_mobile, b.booking_date)
FROM payments_ledger l JOIN bookings b ON b.id = l.booking_id
WHERE l.id = e.ledger_id;
--> statement-breakpoint
INSERT INTO income_list_entries (ledger_id, booking_id, booking_date, booking_time_slot_start, entry)
SELECT l.id, NULL, (l.occurred_at AT TIME ZONE 'Asia/Kolkata')::date, time '00:00',
       income_entry_json(l.amount_paise, l.kind, l.method, l.payment_id, l.refund_id, l.reason, l.occurred_at,
                         NULL, s.id, NULL, s.client_full_name, s.client_mobile, (l.occurred_at AT TIME ZONE 'Asia/Kolkata')::date)
FROM payments_ledger l JOIN package_sales s ON s.id = l.package_sale_id;
