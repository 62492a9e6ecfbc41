CREATE SEQUENCE "public"."escrow_platform_key_index_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 2147483647 START WITH 0 CACHE 1;--> statement-breakpoint
DROP INDEX "escrow_payouts_live_leg_idx";--> statement-breakpoint
ALTER TABLE "escrow_legs" ADD COLUMN "platform_key_index" integer DEFAULT nextval('escrow_platform_key_index_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "escrow_legs" ADD COLUMN "custody" jsonb;--> statement-breakpoint
ALTER TABLE "escrow_payouts" ADD COLUMN "fee_bump_transactions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_payouts_live_late_deposit_idx" ON "escrow_payouts" USING btree ("escrow_id","leg") WHERE "escrow_payouts"."source" = 'late_deposit' and "escrow_payouts"."status" not in ('superseded', 'confirmed', 'failed');--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_payouts_live_leg_idx" ON "escrow_payouts" USING btree ("escrow_id","leg") WHERE "escrow_payouts"."status" <> 'superseded' and "escrow_payouts"."source" <> 'late_deposit';