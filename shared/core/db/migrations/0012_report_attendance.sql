ALTER TABLE "report_daily" ADD COLUMN "attended_bookings" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_daily" ADD COLUMN "no_show_bookings" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_daily_therapist" ADD COLUMN "attended_bookings" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_daily_therapist" ADD COLUMN "no_show_bookings" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Aggregates made before attendance was counted are dropped; reports read those days live until the
-- nightly job aggregates them again.
DELETE FROM "report_daily";
