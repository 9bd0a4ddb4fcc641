-- The package credits ledger (issue 34) is append-only, as the payments ledger is: a credit is corrected
-- by another row (returned, expired, refunded), never by editing one.
CREATE FUNCTION package_credits_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'package_credits is append-only: record a correcting row instead';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER package_credits_append_only
BEFORE UPDATE OR DELETE ON package_credits
FOR EACH ROW EXECUTE FUNCTION package_credits_append_only();
--> statement-breakpoint
-- A sale's credits never go below zero, whatever a caller forgot: the services decide under the sale's
-- row lock, and this refuses the row that would overdraw (a constraint trigger, checked at the row's
-- insert with every earlier row of the sale visible).
CREATE FUNCTION package_credits_not_negative() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT coalesce(sum(sessions), 0) FROM package_credits WHERE sale_id = NEW.sale_id) < 0 THEN
    RAISE EXCEPTION 'package sale % has no credit left', NEW.sale_id USING ERRCODE = 'check_violation', CONSTRAINT = 'package_credits_left_check';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER package_credits_not_negative
AFTER INSERT ON package_credits
FOR EACH ROW EXECUTE FUNCTION package_credits_not_negative();
