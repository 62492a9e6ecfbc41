CREATE TABLE "staff_role_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"change" text NOT NULL,
	"changed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_role_changes" ADD CONSTRAINT "staff_role_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_role_changes" ADD CONSTRAINT "staff_role_changes_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_role_changes_user_idx" ON "staff_role_changes" USING btree ("user_id","created_at");--> statement-breakpoint
-- The history starts with the roles held now, as they were granted.
INSERT INTO "staff_role_changes" ("user_id", "role", "change", "changed_by", "created_at")
SELECT "user_id", "role", 'granted', "granted_by", "created_at" FROM "user_roles";
