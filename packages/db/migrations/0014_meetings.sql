CREATE TABLE "meeting_check_ins" (
	"deal_id" uuid NOT NULL,
	"party" text NOT NULL,
	"user_id" uuid NOT NULL,
	"method" text NOT NULL,
	"code_party" text NOT NULL,
	"code_step" bigint NOT NULL,
	"position_sealed" text,
	"distance_meters" integer,
	"within_radius" text NOT NULL,
	"position_erased_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meeting_check_ins_deal_id_party_pk" PRIMARY KEY("deal_id","party")
);
--> statement-breakpoint
CREATE TABLE "meeting_waivers" (
	"deal_id" uuid NOT NULL,
	"party" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "meeting_waivers_deal_id_party_pk" PRIMARY KEY("deal_id","party")
);
--> statement-breakpoint
CREATE TABLE "travel_item_approvals" (
	"item_id" uuid NOT NULL,
	"quote_version" integer NOT NULL,
	"party" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "travel_item_approvals_item_id_quote_version_party_pk" PRIMARY KEY("item_id","quote_version","party")
);
--> statement-breakpoint
CREATE TABLE "travel_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deal_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"traveller" text NOT NULL,
	"details" text NOT NULL,
	"requested_by" uuid NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"quote_version" integer DEFAULT 0 NOT NULL,
	"quote_provider" text,
	"quote_description" text,
	"quote_amount" numeric(78, 0),
	"quote_payee_address" text,
	"quote_file_id" uuid,
	"quoted_by" uuid,
	"quoted_at" timestamp with time zone,
	"payout_id" uuid,
	"booked_by" uuid,
	"booked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "escrow_payouts_live_leg_idx";--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "meeting" jsonb;--> statement-breakpoint
ALTER TABLE "meeting_check_ins" ADD CONSTRAINT "meeting_check_ins_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_check_ins" ADD CONSTRAINT "meeting_check_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_waivers" ADD CONSTRAINT "meeting_waivers_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_waivers" ADD CONSTRAINT "meeting_waivers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_item_approvals" ADD CONSTRAINT "travel_item_approvals_item_id_travel_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."travel_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_item_approvals" ADD CONSTRAINT "travel_item_approvals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_items" ADD CONSTRAINT "travel_items_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_items" ADD CONSTRAINT "travel_items_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_items" ADD CONSTRAINT "travel_items_quote_file_id_stored_files_id_fk" FOREIGN KEY ("quote_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_items" ADD CONSTRAINT "travel_items_quoted_by_users_id_fk" FOREIGN KEY ("quoted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "travel_items" ADD CONSTRAINT "travel_items_booked_by_users_id_fk" FOREIGN KEY ("booked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "meeting_check_ins_code_idx" ON "meeting_check_ins" USING btree ("deal_id","code_party","code_step");--> statement-breakpoint
CREATE INDEX "travel_items_deal_idx" ON "travel_items" USING btree ("deal_id","created_at");--> statement-breakpoint
CREATE INDEX "travel_items_status_created_idx" ON "travel_items" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_payouts_live_travel_idx" ON "escrow_payouts" USING btree ("escrow_id","leg") WHERE "escrow_payouts"."source" = 'travel' and "escrow_payouts"."status" not in ('superseded', 'confirmed', 'failed');--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_payouts_live_leg_idx" ON "escrow_payouts" USING btree ("escrow_id","leg") WHERE "escrow_payouts"."status" <> 'superseded' and "escrow_payouts"."source" not in ('late_deposit', 'travel');