ALTER TABLE "series" DROP CONSTRAINT "series_settlement_check";--> statement-breakpoint
ALTER TABLE "series" ADD COLUMN "package_sale_id" integer;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_package_sale_id_package_sales_id_fk" FOREIGN KEY ("package_sale_id") REFERENCES "public"."package_sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_package_sale_check" CHECK (("series"."settlement" = 'PACKAGE') = ("series"."package_sale_id" is not null));--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_settlement_check" CHECK ("series"."settlement" in ('SEND_LINK', 'PAY_AT_CENTRE', 'PAID_NOW', 'PACKAGE'));