ALTER TABLE "bookings" ADD COLUMN "client_change" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "client_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_client_change_check" CHECK ("bookings"."client_change" is null or "bookings"."client_change" in ('MOVED', 'CANCELLED'));