CREATE TABLE "waitlist_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "waitlist_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"therapist_id" integer NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"times" text[] DEFAULT '{}'::text[] NOT NULL,
	"client_full_name" text NOT NULL,
	"client_email" text NOT NULL,
	"client_mobile" text NOT NULL,
	"client_address_hash" text,
	"status" text DEFAULT 'waiting' NOT NULL,
	"token_hash" text,
	"joined_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "waitlist_entries_status_check" CHECK ("waitlist_entries"."status" in ('waiting', 'offered', 'booked', 'left')),
	CONSTRAINT "waitlist_entries_range_check" CHECK ("waitlist_entries"."from_date" <= "waitlist_entries"."to_date"),
	CONSTRAINT "waitlist_entries_times_check" CHECK ("waitlist_entries"."times" <@ array['morning', 'afternoon', 'evening']::text[])
);
--> statement-breakpoint
CREATE TABLE "waitlist_offers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "waitlist_offers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entry_id" integer NOT NULL,
	"booking_id" integer NOT NULL,
	"booking_date" date NOT NULL,
	"booking_time_slot_start" time NOT NULL,
	"offered_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"outcome" text,
	"settled_at" timestamp with time zone,
	CONSTRAINT "waitlist_offers_outcome_check" CHECK ("waitlist_offers"."outcome" is null or "waitlist_offers"."outcome" in ('claimed', 'lapsed', 'left')),
	CONSTRAINT "waitlist_offers_settled_check" CHECK (("waitlist_offers"."outcome" is null) = ("waitlist_offers"."settled_at" is null))
);
--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_therapist_id_therapists_id_fk" FOREIGN KEY ("therapist_id") REFERENCES "public"."therapists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_entry_id_waitlist_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."waitlist_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_offers" ADD CONSTRAINT "waitlist_offers_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_token_uq" ON "waitlist_entries" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "waitlist_entries_queue_idx" ON "waitlist_entries" USING btree ("therapist_id","joined_at","id") WHERE "waitlist_entries"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waitlist_entries_email_idx" ON "waitlist_entries" USING btree ("client_email") WHERE "waitlist_entries"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waitlist_entries_mobile_idx" ON "waitlist_entries" USING btree ("client_mobile") WHERE "waitlist_entries"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waitlist_entries_address_idx" ON "waitlist_entries" USING btree ("client_address_hash","joined_at") WHERE "waitlist_entries"."client_address_hash" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_offers_booking_uq" ON "waitlist_offers" USING btree ("booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_offers_slot_uq" ON "waitlist_offers" USING btree ("entry_id","booking_date","booking_time_slot_start");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_offers_open_uq" ON "waitlist_offers" USING btree ("entry_id") WHERE "waitlist_offers"."outcome" is null;