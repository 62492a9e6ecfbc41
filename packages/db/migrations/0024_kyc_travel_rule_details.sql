ALTER TABLE "kyc_submissions" ADD COLUMN "place_of_birth_city" text;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD COLUMN "place_of_birth_country" text;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD COLUMN "registration_authority" text;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD COLUMN "town_name" text;