CREATE TABLE "admin_token_revocations" (
	"jti" text PRIMARY KEY NOT NULL,
	"admin_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_users" ADD COLUMN "session_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "booking_token_hash" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "client_address_hash" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "admin_token_revocations" ADD CONSTRAINT "admin_token_revocations_admin_id_admin_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admin_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_token_revocations_expires_idx" ON "admin_token_revocations" USING btree ("expires_at");--> statement-breakpoint
-- payment_transaction_id becomes the client's idempotency key. Earlier rows that shared one keep the
-- oldest as is; the others get their booking id appended, so every lookup by the key finds one booking.
UPDATE "bookings" b SET "payment_transaction_id" = b."payment_transaction_id" || '-' || b."id"
WHERE EXISTS (SELECT 1 FROM "bookings" o WHERE o."payment_transaction_id" = b."payment_transaction_id" AND o."id" < b."id");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_payment_txn_uq" ON "bookings" USING btree ("payment_transaction_id");--> statement-breakpoint
CREATE INDEX "bookings_client_address_idx" ON "bookings" USING btree ("client_address_hash","created_at") WHERE "bookings"."client_address_hash" is not null;