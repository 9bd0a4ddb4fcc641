-- The per-client hold counts of the public booking (booking-insert.sql) read these indexes. With the
-- count's own predicate they serve it as an index-only scan, which the planner prefers to
-- bookings_initiated_idx even with statistics taken when no hold was live; with the bare INITIATED
-- predicate it chose bookings_initiated_idx then and read every live hold of the centre per count.
DROP INDEX "bookings_initiated_email_idx";--> statement-breakpoint
DROP INDEX "bookings_initiated_mobile_idx";--> statement-breakpoint
CREATE INDEX "bookings_initiated_email_idx" ON "bookings" USING btree ("client_email","payment_hold_expires_at") WHERE "bookings"."payment_status" = 'INITIATED' and "bookings"."booking_type" = 'ONLINE' and not "bookings"."cancelled" and "bookings"."created_by_admin_id" is null;--> statement-breakpoint
CREATE INDEX "bookings_initiated_mobile_idx" ON "bookings" USING btree ("client_mobile","payment_hold_expires_at") WHERE "bookings"."payment_status" = 'INITIATED' and "bookings"."booking_type" = 'ONLINE' and not "bookings"."cancelled" and "bookings"."created_by_admin_id" is null;