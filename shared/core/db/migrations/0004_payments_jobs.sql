CREATE TABLE "sandbox_payment_links" (
	"id" text PRIMARY KEY NOT NULL,
	"reference_id" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"description" text NOT NULL,
	"customer" jsonb NOT NULL,
	"callback_url" text NOT NULL,
	"expire_by" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "payment_hold_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "bookings_initiated_idx" ON "bookings" USING btree ("payment_hold_expires_at") WHERE "bookings"."payment_status" = 'INITIATED';