CREATE TABLE "job_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "job_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"queue" text NOT NULL,
	"job_name" text NOT NULL,
	"job_id" text NOT NULL,
	"booking_id" integer,
	"summary" text NOT NULL,
	"failed_at" timestamp with time zone NOT NULL,
	"attempts" integer NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by_admin_id" integer
);
--> statement-breakpoint
ALTER TABLE "job_failures" ADD CONSTRAINT "job_failures_resolved_by_admin_id_admin_users_id_fk" FOREIGN KEY ("resolved_by_admin_id") REFERENCES "public"."admin_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "job_failures_job_uq" ON "job_failures" USING btree ("queue","job_id");--> statement-breakpoint
CREATE INDEX "job_failures_list_idx" ON "job_failures" USING btree (("resolved_at" is null) desc,"failed_at" DESC NULLS LAST,"id" DESC NULLS LAST);