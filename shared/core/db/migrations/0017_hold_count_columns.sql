-- The per-client hold counts of the public booking (book_batch, migration 0018) look clients up by
-- hold_email and hold_mobile: only their own indexes hold those columns, so the plan cannot fall back to
-- bookings_initiated_idx (every live hold of the centre per count), as it did with indexes on
-- client_email and client_mobile whenever the statistics were taken with no hold live.
DROP INDEX "bookings_initiated_email_idx";--> statement-breakpoint
DROP INDEX "bookings_initiated_mobile_idx";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "hold_email" text GENERATED ALWAYS AS (case when payment_status = 'INITIATED' and booking_type = 'ONLINE' and not cancelled and created_by_admin_id is null then client_email end) STORED;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "hold_mobile" text GENERATED ALWAYS AS (case when payment_status = 'INITIATED' and booking_type = 'ONLINE' and not cancelled and created_by_admin_id is null then client_mobile end) STORED;--> statement-breakpoint
CREATE INDEX "bookings_hold_email_idx" ON "bookings" USING btree ("hold_email","payment_hold_expires_at") WHERE "bookings"."hold_email" is not null;--> statement-breakpoint
CREATE INDEX "bookings_hold_mobile_idx" ON "bookings" USING btree ("hold_mobile","payment_hold_expires_at") WHERE "bookings"."hold_mobile" is not null;