CREATE TABLE "cis_sheets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"form_file_id" uuid NOT NULL,
	"pdf_file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deal_addresses" (
	"deal_id" uuid NOT NULL,
	"party" text NOT NULL,
	"payout_address" text NOT NULL,
	"refund_address" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_addresses_deal_id_party_pk" PRIMARY KEY("deal_id","party")
);
--> statement-breakpoint
CREATE TABLE "deal_cis" (
	"deal_id" uuid NOT NULL,
	"party" text NOT NULL,
	"cis_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"review_comment" text,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_cis_deal_id_party_pk" PRIMARY KEY("deal_id","party")
);
--> statement-breakpoint
CREATE TABLE "deal_disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deal_id" uuid NOT NULL,
	"opened_by" uuid NOT NULL,
	"reason" text NOT NULL,
	"status_before" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"mediator_id" uuid,
	"decision" text,
	"decision_details" jsonb,
	"rationale" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deal_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deal_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deal_terms_versions" (
	"deal_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"proposed_by" uuid NOT NULL,
	"terms" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deal_terms_versions_deal_id_version_pk" PRIMARY KEY("deal_id","version")
);
--> statement-breakpoint
CREATE TABLE "dispute_evidence" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dispute_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "escrow_instructions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deal_id" uuid NOT NULL,
	"dispute_id" uuid,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"deal_id" uuid,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"read_at" timestamp with time zone,
	"emailed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_roles" ADD COLUMN "granted_by" uuid;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "terms_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "funding_deadline_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "accepted_terms_version" integer;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "terms_hash" text;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "terms_agreed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cis_sheets" ADD CONSTRAINT "cis_sheets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cis_sheets" ADD CONSTRAINT "cis_sheets_form_file_id_stored_files_id_fk" FOREIGN KEY ("form_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cis_sheets" ADD CONSTRAINT "cis_sheets_pdf_file_id_stored_files_id_fk" FOREIGN KEY ("pdf_file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_addresses" ADD CONSTRAINT "deal_addresses_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_cis" ADD CONSTRAINT "deal_cis_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_cis" ADD CONSTRAINT "deal_cis_cis_id_cis_sheets_id_fk" FOREIGN KEY ("cis_id") REFERENCES "public"."cis_sheets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_disputes" ADD CONSTRAINT "deal_disputes_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_disputes" ADD CONSTRAINT "deal_disputes_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_disputes" ADD CONSTRAINT "deal_disputes_mediator_id_users_id_fk" FOREIGN KEY ("mediator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_disputes" ADD CONSTRAINT "deal_disputes_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_messages" ADD CONSTRAINT "deal_messages_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_messages" ADD CONSTRAINT "deal_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_terms_versions" ADD CONSTRAINT "deal_terms_versions_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_terms_versions" ADD CONSTRAINT "deal_terms_versions_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_evidence" ADD CONSTRAINT "dispute_evidence_dispute_id_deal_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."deal_disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_evidence" ADD CONSTRAINT "dispute_evidence_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispute_evidence" ADD CONSTRAINT "dispute_evidence_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escrow_instructions" ADD CONSTRAINT "escrow_instructions_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "escrow_instructions" ADD CONSTRAINT "escrow_instructions_dispute_id_deal_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."deal_disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cis_sheets_owner_idx" ON "cis_sheets" USING btree ("owner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "deal_disputes_one_open_idx" ON "deal_disputes" USING btree ("deal_id") WHERE "deal_disputes"."status" = 'open';--> statement-breakpoint
CREATE INDEX "deal_disputes_status_created_idx" ON "deal_disputes" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "deal_messages_deal_created_idx" ON "deal_messages" USING btree ("deal_id","created_at","id");--> statement-breakpoint
CREATE INDEX "dispute_evidence_dispute_idx" ON "dispute_evidence" USING btree ("dispute_id");--> statement-breakpoint
CREATE INDEX "escrow_instructions_status_idx" ON "escrow_instructions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_unsent_idx" ON "notifications" USING btree ("created_at") WHERE "notifications"."emailed_at" is null;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Hand-written: deals from before terms versions get their current terms as version 1, proposed by the buyer.
INSERT INTO "deal_terms_versions" ("deal_id", "version", "proposed_by", "terms", "created_at")
SELECT "id", 1, "buyer_id", jsonb_build_object(
  'asset_chain', "asset_chain", 'asset_symbol', "asset_symbol", 'asset_amount', "asset_amount"::text,
  'stable_chain', "stable_chain", 'stable_symbol', "stable_symbol", 'stable_amount', "stable_amount"::text,
  'funding_deadline_hours', "funding_deadline_hours", 'meeting_required', "meeting_required",
  'travel_location', "travel_location"), "created_at"
FROM "deals";
--> statement-breakpoint
-- Hand-written: a committed audit entry or message wakes whoever follows the deal live (the deal room's
-- server-sent events), on PostgreSQL and PGlite alike. NOTIFY is delivered at commit, never for a rollback.
CREATE FUNCTION "notify_deal_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('deal_events', json_build_object('deal_id', NEW."deal_id", 'kind', TG_ARGV[0])::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "deal_audit_entries_notify" AFTER INSERT ON "deal_audit_entries" FOR EACH ROW EXECUTE FUNCTION "notify_deal_event"('audit');
--> statement-breakpoint
CREATE TRIGGER "deal_messages_notify" AFTER INSERT ON "deal_messages" FOR EACH ROW EXECUTE FUNCTION "notify_deal_event"('message');
