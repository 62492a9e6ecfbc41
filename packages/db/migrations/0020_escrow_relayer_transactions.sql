CREATE TABLE "escrow_relayer_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chain" text NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"escrow_id" uuid,
	"leg" text NOT NULL,
	"deposit_address" text NOT NULL,
	"status" text DEFAULT 'submitting' NOT NULL,
	"raw_transaction" text NOT NULL,
	"tx_ref" text NOT NULL,
	"replaced_transactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fee_bump_transactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"submitted_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "escrow_relayer_transactions_live_idx" ON "escrow_relayer_transactions" USING btree ("chain","kind","subject") WHERE "escrow_relayer_transactions"."status" in ('submitting', 'submitted');--> statement-breakpoint
CREATE INDEX "escrow_relayer_transactions_subject_idx" ON "escrow_relayer_transactions" USING btree ("chain","kind","subject");--> statement-breakpoint
CREATE INDEX "escrow_relayer_transactions_status_idx" ON "escrow_relayer_transactions" USING btree ("status");