CREATE TABLE "deal_audit_entries" (
	"deal_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "deal_audit_entries_deal_id_seq_pk" PRIMARY KEY("deal_id","seq")
);
--> statement-breakpoint
ALTER TABLE "deal_audit_entries" ADD CONSTRAINT "deal_audit_entries_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deal_audit_entries" ADD CONSTRAINT "deal_audit_entries_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): the audit trail is append-only for every role
-- that does not first disable the trigger, which takes the table's owner or a superuser.
CREATE FUNCTION "refuse_deal_audit_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'deal_audit_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "deal_audit_entries_append_only" BEFORE UPDATE OR DELETE ON "deal_audit_entries" FOR EACH ROW EXECUTE FUNCTION "refuse_deal_audit_change"();
--> statement-breakpoint
CREATE TRIGGER "deal_audit_entries_no_truncate" BEFORE TRUNCATE ON "deal_audit_entries" FOR EACH STATEMENT EXECUTE FUNCTION "refuse_deal_audit_change"();
