ALTER TABLE "one_time_tokens" ADD COLUMN "password_hash" text;--> statement-breakpoint
-- A password typed at sign-up is the account's only once its sign-up link is followed: until then
-- it may be a squatter's. Unconfirmed accounts' passwords move onto their pending sign-up token
-- (following that link still installs it); without a token they are dropped, and the owner confirms
-- the address by another link and sets a password by recovery.
UPDATE "one_time_tokens" SET "password_hash" = "users"."password_hash"
FROM "users"
WHERE "one_time_tokens"."user_id" = "users"."id"
  AND "one_time_tokens"."type" = 'signup'
  AND "users"."email_confirmed_at" IS NULL;--> statement-breakpoint
UPDATE "users" SET "password_hash" = NULL WHERE "email_confirmed_at" IS NULL;
