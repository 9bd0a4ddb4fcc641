CREATE TABLE "refund_requests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refund_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"booking_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_paise" integer NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"requested_by" text NOT NULL,
	"requested_by_admin_id" integer,
	"requested_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by_admin_id" integer,
	"resolution_note" text,
	CONSTRAINT "refund_requests_kind_check" CHECK ("refund_requests"."kind" in ('AT_COUNTER', 'REVIEW')),
	CONSTRAINT "refund_requests_status_check" CHECK ("refund_requests"."status" in ('OPEN', 'DONE', 'APPROVED', 'DECLINED')),
	CONSTRAINT "refund_requests_amount_check" CHECK ("refund_requests"."amount_paise" > 0),
	CONSTRAINT "refund_requests_resolved_check" CHECK (("refund_requests"."status" = 'OPEN') = ("refund_requests"."resolved_at" is null))
);
--> statement-breakpoint
ALTER TABLE "payments_ledger" DROP CONSTRAINT "payments_ledger_method_check";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "payment_link_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "payment_link_sent_to" text[];--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_requested_by_admin_id_admin_users_id_fk" FOREIGN KEY ("requested_by_admin_id") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_resolved_by_admin_id_admin_users_id_fk" FOREIGN KEY ("resolved_by_admin_id") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_requests_open_uq" ON "refund_requests" USING btree ("booking_id","kind") WHERE "refund_requests"."status" = 'OPEN';--> statement-breakpoint
CREATE INDEX "refund_requests_open_idx" ON "refund_requests" USING btree ("requested_at") WHERE "refund_requests"."status" = 'OPEN';--> statement-breakpoint
ALTER TABLE "payments_ledger" ADD CONSTRAINT "payments_ledger_method_check" CHECK ("payments_ledger"."method" in ('UPI', 'CARD', 'NETBANKING', 'WALLET', 'CASH', 'BANK_TRANSFER', 'OTHER'));