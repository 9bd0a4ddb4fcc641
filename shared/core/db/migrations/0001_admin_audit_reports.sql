CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"admin_id" integer,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "report_daily" (
	"report_date" date PRIMARY KEY NOT NULL,
	"total_bookings" integer NOT NULL,
	"completed_bookings" integer NOT NULL,
	"cancelled_bookings" integer NOT NULL,
	"failed_bookings" integer NOT NULL,
	"income_paise" bigint NOT NULL,
	"aggregated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_daily_therapist" (
	"report_date" date NOT NULL,
	"therapist_id" integer NOT NULL,
	"total_bookings" integer NOT NULL,
	"completed_bookings" integer NOT NULL,
	"cancelled_bookings" integer NOT NULL,
	"failed_bookings" integer NOT NULL,
	"income_paise" bigint NOT NULL,
	CONSTRAINT "report_daily_therapist_report_date_therapist_id_pk" PRIMARY KEY("report_date","therapist_id")
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_admin_id_admin_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_daily_therapist" ADD CONSTRAINT "report_daily_therapist_report_date_report_daily_report_date_fk" FOREIGN KEY ("report_date") REFERENCES "public"."report_daily"("report_date") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_daily_therapist" ADD CONSTRAINT "report_daily_therapist_therapist_id_therapists_id_fk" FOREIGN KEY ("therapist_id") REFERENCES "public"."therapists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at" DESC NULLS LAST,"id" DESC NULLS LAST);