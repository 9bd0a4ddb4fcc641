CREATE TABLE "payments_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"booking_id" integer NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"payment_id" text NOT NULL,
	"refund_id" text,
	"link_id" text,
	"amount_paise" integer NOT NULL,
	"method" text NOT NULL,
	"reason" text,
	"recorded_by_admin_id" integer,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_ledger_kind_check" CHECK ("payments_ledger"."kind" in ('capture', 'refund')),
	CONSTRAINT "payments_ledger_sign_check" CHECK (("payments_ledger"."kind" = 'capture' and "payments_ledger"."amount_paise" > 0) or ("payments_ledger"."kind" = 'refund' and "payments_ledger"."amount_paise" < 0)),
	CONSTRAINT "payments_ledger_method_check" CHECK ("payments_ledger"."method" in ('UPI', 'CARD', 'NETBANKING', 'WALLET', 'CASH', 'OTHER')),
	CONSTRAINT "payments_ledger_refund_id_check" CHECK (("payments_ledger"."kind" = 'refund') = ("payments_ledger"."refund_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "sandbox_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"notes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'processed' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_refunds_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
ALTER TABLE "payments_ledger" ADD CONSTRAINT "payments_ledger_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments_ledger" ADD CONSTRAINT "payments_ledger_recorded_by_admin_id_admin_users_id_fk" FOREIGN KEY ("recorded_by_admin_id") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_ledger_capture_uq" ON "payments_ledger" USING btree ("provider","payment_id") WHERE "payments_ledger"."kind" = 'capture';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_ledger_refund_uq" ON "payments_ledger" USING btree ("provider","refund_id") WHERE "payments_ledger"."kind" = 'refund';--> statement-breakpoint
CREATE INDEX "payments_ledger_booking_idx" ON "payments_ledger" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "payments_ledger_occurred_idx" ON "payments_ledger" USING btree ("occurred_at");--> statement-breakpoint
-- Money taken before the ledger existed: one capture per paid booking. A provider's payment keeps its
-- id (sandbox when the sandbox issued its link); a booking an admin marked paid has no payment id and
-- is recorded as taken at the centre, under an id of its own. Method unknown: OTHER.
INSERT INTO "payments_ledger" ("booking_id", "kind", "provider", "payment_id", "link_id", "amount_paise", "method", "occurred_at")
SELECT b."id", 'capture',
       CASE WHEN b."razorpay_payment_id" IS NULL THEN 'counter'
            WHEN EXISTS (SELECT 1 FROM "sandbox_payment_links" s WHERE s."id" = b."razorpay_payment_link_id") THEN 'sandbox'
            ELSE 'razorpay' END,
       coalesce(b."razorpay_payment_id", 'booking-' || b."id"),
       b."razorpay_payment_link_id", b."amount_paise", 'OTHER', coalesce(b."paid_at", b."updated_at")
FROM "bookings" b
WHERE b."payment_status" = 'COMPLETED' AND b."amount_paise" > 0
ON CONFLICT DO NOTHING;
