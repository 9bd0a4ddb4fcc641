ALTER TABLE "package_sales" ADD COLUMN "client_address_hash" text;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD COLUMN "whatsapp_opt_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD COLUMN "whatsapp_consent_text" text;--> statement-breakpoint
CREATE INDEX "package_sales_address_idx" ON "package_sales" USING btree ("client_address_hash","created_at") WHERE "package_sales"."client_address_hash" is not null;--> statement-breakpoint
CREATE INDEX "package_sales_awaiting_email_idx" ON "package_sales" USING btree ("client_email") WHERE "package_sales"."status" = 'AWAITING_PAYMENT';--> statement-breakpoint
CREATE INDEX "package_sales_awaiting_mobile_idx" ON "package_sales" USING btree ("client_mobile") WHERE "package_sales"."status" = 'AWAITING_PAYMENT';