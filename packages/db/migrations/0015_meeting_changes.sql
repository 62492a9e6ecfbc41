ALTER TABLE "deals" ADD COLUMN "meeting_proposal" jsonb;--> statement-breakpoint
ALTER TABLE "deals" ADD COLUMN "meeting_proposed_by" uuid;--> statement-breakpoint
ALTER TABLE "deals" ADD CONSTRAINT "deals_meeting_proposed_by_users_id_fk" FOREIGN KEY ("meeting_proposed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;