ALTER TABLE "waitlist_entries" ADD COLUMN "whatsapp_opt_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD COLUMN "whatsapp_consent_text" text;