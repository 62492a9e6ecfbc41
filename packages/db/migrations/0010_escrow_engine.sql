CREATE TABLE "chain_scan_cursors" (
	"chain" text PRIMARY KEY NOT NULL,
	"scanned_height" bigint NOT NULL,
	"scanned_block_ref" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escrow_keys" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"ciphertext" text NOT NULL,
	"encryption" jsonb NOT NULL,
	"ethereum_address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escrow_payout_signatures" (
	"payout_id" uuid NOT NULL,
	"signer" text NOT NULL,
	"signer_address" text NOT NULL,
	"signature" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "escrow_payout_signatures_payout_id_signer_pk" PRIMARY KEY("payout_id","signer")
);
--> statement-breakpoint
CREATE TABLE "escrow_payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"escrow_id" uuid NOT NULL,
	"leg" text NOT NULL,
	"chain" text NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"instruction_id" uuid,
	"payout_ref" text NOT NULL,
	"signing_payload" jsonb NOT NULL,
	"plan" jsonb NOT NULL,
	"status" text DEFAULT 'collecting' NOT NULL,
	"raw_transaction" text,
	"tx_ref" text,
	"error" text,
	"submitted_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "escrow_legs" ADD COLUMN "refund_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "escrow_keys" ADD CONSTRAINT "escrow_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escrow_payout_signatures" ADD CONSTRAINT "escrow_payout_signatures_payout_id_escrow_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."escrow_payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escrow_payouts" ADD CONSTRAINT "escrow_payouts_leg_fk" FOREIGN KEY ("escrow_id","leg") REFERENCES "public"."escrow_legs"("escrow_id","leg") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_payouts_live_leg_idx" ON "escrow_payouts" USING btree ("escrow_id","leg") WHERE "escrow_payouts"."status" <> 'superseded';--> statement-breakpoint
CREATE INDEX "escrow_payouts_status_idx" ON "escrow_payouts" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_alerts_open_idx" ON "staff_alerts" USING btree ("kind","subject") WHERE "staff_alerts"."resolved_at" is null;