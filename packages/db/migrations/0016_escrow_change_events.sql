-- Hand-written: a committed change to an escrow (opened, a leg's state, a deposit seen or deeper,
-- a payout built, approved, sent or confirmed) wakes the deal's live streams with kind 'escrow', so
-- the deal room re-reads the escrow when it changes instead of polling it. An UPDATE that changes
-- nothing announces nothing. NOTIFY is delivered at commit, once per distinct payload.
CREATE FUNCTION "notify_escrow_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target uuid;
BEGIN
  IF TG_ARGV[0] = 'payout' THEN
    SELECT e."deal_id" INTO target FROM "escrow_payouts" p JOIN "escrows" e ON e."id" = p."escrow_id"
      WHERE p."id" = NEW."payout_id";
  ELSE
    SELECT "deal_id" INTO target FROM "escrows" WHERE "id" = NEW."escrow_id";
  END IF;
  IF target IS NOT NULL THEN
    PERFORM pg_notify('deal_events', json_build_object('deal_id', target, 'kind', 'escrow')::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "escrows_notify" AFTER INSERT ON "escrows" FOR EACH ROW EXECUTE FUNCTION "notify_deal_event"('escrow');
--> statement-breakpoint
CREATE TRIGGER "escrows_changed_notify" AFTER UPDATE ON "escrows" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "notify_deal_event"('escrow');
--> statement-breakpoint
CREATE TRIGGER "escrow_legs_notify" AFTER INSERT ON "escrow_legs" FOR EACH ROW EXECUTE FUNCTION "notify_escrow_change"('escrow');
--> statement-breakpoint
CREATE TRIGGER "escrow_legs_changed_notify" AFTER UPDATE ON "escrow_legs" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "notify_escrow_change"('escrow');
--> statement-breakpoint
CREATE TRIGGER "escrow_ledger_entries_notify" AFTER INSERT ON "escrow_ledger_entries" FOR EACH ROW EXECUTE FUNCTION "notify_escrow_change"('escrow');
--> statement-breakpoint
CREATE TRIGGER "escrow_ledger_entries_changed_notify" AFTER UPDATE ON "escrow_ledger_entries" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "notify_escrow_change"('escrow');
--> statement-breakpoint
CREATE TRIGGER "escrow_payouts_notify" AFTER INSERT ON "escrow_payouts" FOR EACH ROW EXECUTE FUNCTION "notify_escrow_change"('escrow');
--> statement-breakpoint
CREATE TRIGGER "escrow_payouts_changed_notify" AFTER UPDATE ON "escrow_payouts" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "notify_escrow_change"('escrow');
--> statement-breakpoint
CREATE TRIGGER "escrow_payout_signatures_notify" AFTER INSERT ON "escrow_payout_signatures" FOR EACH ROW EXECUTE FUNCTION "notify_escrow_change"('payout');
