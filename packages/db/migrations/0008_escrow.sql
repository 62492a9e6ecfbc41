CREATE TABLE "escrow_ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"escrow_id" uuid NOT NULL,
	"leg" text NOT NULL,
	"chain" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"tx_ref" text NOT NULL,
	"position" integer NOT NULL,
	"counterparty_address" text,
	"block_ref" text,
	"block_height" bigint,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escrow_legs" (
	"escrow_id" uuid NOT NULL,
	"leg" text NOT NULL,
	"chain" text NOT NULL,
	"symbol" text NOT NULL,
	"token_address" text,
	"required_amount" numeric(78, 0) NOT NULL,
	"deposit_address" text NOT NULL,
	"depositor_refund_address" text NOT NULL,
	"receiver_payout_address" text NOT NULL,
	"buyer_signer" text NOT NULL,
	"seller_signer" text NOT NULL,
	"platform_signer" text NOT NULL,
	"required_confirmations" integer NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'awaiting_deposit' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "escrow_legs_escrow_id_leg_pk" PRIMARY KEY("escrow_id","leg")
);
--> statement-breakpoint
CREATE TABLE "escrows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deal_id" uuid NOT NULL,
	"status" text DEFAULT 'awaiting_funding' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "escrow_ledger_entries" ADD CONSTRAINT "escrow_ledger_entries_leg_fk" FOREIGN KEY ("escrow_id","leg") REFERENCES "public"."escrow_legs"("escrow_id","leg") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escrow_legs" ADD CONSTRAINT "escrow_legs_escrow_id_escrows_id_fk" FOREIGN KEY ("escrow_id") REFERENCES "public"."escrows"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escrows" ADD CONSTRAINT "escrows_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_ledger_entries_movement_idx" ON "escrow_ledger_entries" USING btree ("chain","tx_ref","position","kind");--> statement-breakpoint
CREATE INDEX "escrow_ledger_entries_leg_idx" ON "escrow_ledger_entries" USING btree ("escrow_id","leg");--> statement-breakpoint
CREATE INDEX "escrow_ledger_entries_status_idx" ON "escrow_ledger_entries" USING btree ("chain","status");--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_legs_chain_deposit_address_idx" ON "escrow_legs" USING btree ("chain","deposit_address");--> statement-breakpoint
CREATE INDEX "escrow_legs_state_deadline_idx" ON "escrow_legs" USING btree ("state","deadline");--> statement-breakpoint
CREATE UNIQUE INDEX "escrows_deal_idx" ON "escrows" USING btree ("deal_id");