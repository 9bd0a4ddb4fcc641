ALTER TABLE "report_daily" ADD COLUMN "refunded_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_daily_therapist" ADD COLUMN "refunded_paise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Reports now read money from the ledger (net of refunds): aggregates made the old way are dropped,
-- and reports read those days live until the nightly job aggregates them again.
DELETE FROM "report_daily";
--> statement-breakpoint
-- Income and inventory read the ledger now; this index served the old query over bookings only.
DROP INDEX IF EXISTS "bookings_income_idx";
