CREATE TABLE "refund_intents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refund_intents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"booking_id" integer NOT NULL,
	"amount_paise" integer NOT NULL,
	"counter_paise" integer DEFAULT 0 NOT NULL,
	"parts" jsonb NOT NULL,
	"reason" text,
	"requested_by" text NOT NULL,
	"by_admin_id" integer,
	"action" jsonb NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"failure" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "refund_intents_status_check" CHECK ("refund_intents"."status" in ('OPEN', 'DONE', 'FAILED')),
	CONSTRAINT "refund_intents_amount_check" CHECK ("refund_intents"."amount_paise" > 0 and "refund_intents"."counter_paise" >= 0 and "refund_intents"."counter_paise" < "refund_intents"."amount_paise"),
	CONSTRAINT "refund_intents_finished_check" CHECK (("refund_intents"."status" = 'OPEN') = ("refund_intents"."finished_at" is null))
);
--> statement-breakpoint
ALTER TABLE "refund_intents" ADD CONSTRAINT "refund_intents_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_intents" ADD CONSTRAINT "refund_intents_by_admin_id_admin_users_id_fk" FOREIGN KEY ("by_admin_id") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_intents_open_uq" ON "refund_intents" USING btree ("booking_id") WHERE "refund_intents"."status" = 'OPEN';--> statement-breakpoint
CREATE INDEX "refund_intents_open_idx" ON "refund_intents" USING btree ("created_at") WHERE "refund_intents"."status" = 'OPEN';