CREATE TABLE "deal_travel_rule" (
	"deal_id" uuid PRIMARY KEY NOT NULL,
	"document_sealed" text NOT NULL,
	"exchanged_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deal_travel_rule" ADD CONSTRAINT "deal_travel_rule_deal_id_deals_id_fk" FOREIGN KEY ("deal_id") REFERENCES "public"."deals"("id") ON DELETE no action ON UPDATE no action;