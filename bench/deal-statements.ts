// The statements GET and POST /api/v1/deals send, as our server's statement log shows them (named
// where ours are named): the bare handler (bare-deals-server.ts) and the pgbench script of
// api-deals.bench.ts send exactly these. When our statements change, these change with them.
export const statements = {
  sessionCaller: {
    name: 'api_session_caller',
    text: `select "api_access_tiers"."tier", "sessions"."aal", "sessions"."amr", array(select "user_roles"."role" from "user_roles" where "user_roles"."user_id" = "sessions"."user_id" order by 1) from "sessions" left join "api_access_tiers" on "api_access_tiers"."user_id" = "sessions"."user_id" where ("sessions"."id" = $1 and "sessions"."user_id" = $2)`,
  },
  rateLimit: {
    name: 'rate_limit_consume',
    text: `insert into "rate_limits" ("key", "count", "reset_at") values ($1, $2, $3::timestamptz) on conflict ("key") do update set "count" = case when "rate_limits"."reset_at" <= $4::timestamptz then 1 else "rate_limits"."count" + 1 end, "reset_at" = case when "rate_limits"."reset_at" <= $5::timestamptz then excluded.reset_at else "rate_limits"."reset_at" end returning "count", "reset_at"`,
  },
  listFirstPage: {
    name: 'list_deals_first_page',
    text: `select "deals"."id", "deals"."buyer_id", "deals"."seller_id", "deals"."asset_chain", "deals"."asset_symbol", "deals"."asset_amount", "deals"."stable_chain", "deals"."stable_symbol", "deals"."stable_amount", "deals"."meeting_required", "deals"."travel_location", "deals"."meeting", "deals"."meeting_proposal", "deals"."meeting_proposed_by", "deals"."status", "deals"."terms_version", "deals"."funding_deadline_hours", "deals"."accepted_terms_version", "deals"."terms_hash", "deals"."terms_agreed_at", "deals"."created_at", "deals"."updated_at", "deals"."completed_at", "buyer_profile"."username", "buyer_profile"."trading_tier", "seller_profile"."username", "seller_profile"."trading_tier", "buyer_addresses"."payout_address", "buyer_addresses"."refund_address", "seller_addresses"."payout_address", "seller_addresses"."refund_address", "latest_terms_version"."proposed_by" from "deals" left join "profiles" "buyer_profile" on "buyer_profile"."id" = "deals"."buyer_id" left join "profiles" "seller_profile" on "seller_profile"."id" = "deals"."seller_id" left join "deal_addresses" "buyer_addresses" on ("buyer_addresses"."deal_id" = "deals"."id" and "buyer_addresses"."party" = $1) left join "deal_addresses" "seller_addresses" on ("seller_addresses"."deal_id" = "deals"."id" and "seller_addresses"."party" = $2) left join "deal_terms_versions" "latest_terms_version" on ("latest_terms_version"."deal_id" = "deals"."id" and "latest_terms_version"."version" = "deals"."terms_version") where "deals"."id" in ((select "deals"."id" from "deals" where "deals"."buyer_id" = $3 order by "deals"."created_at" desc nulls last, "deals"."id" desc nulls last limit $4) union all (select "deals"."id" from "deals" where "deals"."seller_id" = $5 order by "deals"."created_at" desc nulls last, "deals"."id" desc nulls last limit $6)) order by "deals"."created_at" desc, "deals"."id" desc limit $7`,
  },
  traderProfiles: {
    text: `select "id", "username", "verification_status", "trading_tier", "kyc_completed", "tier_limit_usd" from "profiles" where "profiles"."id" in ($1, $2)`,
  },
  insertDeal: {
    text: `insert into "deals" ("id", "buyer_id", "seller_id", "asset_chain", "asset_symbol", "asset_amount", "stable_chain", "stable_symbol", "stable_amount", "meeting_required", "travel_location", "meeting", "meeting_proposal", "meeting_proposed_by", "status", "terms_version", "funding_deadline_hours", "accepted_terms_version", "terms_hash", "terms_agreed_at", "created_at", "updated_at", "completed_at") values (default, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, default, default, $12, default, default, default, default, default, $13, $14, default) returning "id", "buyer_id", "seller_id", "asset_chain", "asset_symbol", "asset_amount", "stable_chain", "stable_symbol", "stable_amount", "meeting_required", "travel_location", "meeting", "meeting_proposal", "meeting_proposed_by", "status", "terms_version", "funding_deadline_hours", "accepted_terms_version", "terms_hash", "terms_agreed_at", "created_at", "updated_at", "completed_at"`,
  },
  insertTermsVersion: {
    text: `insert into "deal_terms_versions" ("deal_id", "version", "proposed_by", "terms", "created_at") values ($1, $2, $3, $4, $5)`,
  },
  lastAuditEntry: {
    text: `select "seq", "hash" from "deal_audit_entries" where "deal_audit_entries"."deal_id" = $1 order by "deal_audit_entries"."seq" desc limit $2`,
  },
  insertAuditEntry: {
    text: `insert into "deal_audit_entries" ("deal_id", "seq", "actor_id", "action", "payload", "created_at", "prev_hash", "hash") values ($1, $2, $3, $4, $5, $6, $7, $8)`,
  },
  insertHistory: {
    text: `insert into "deal_history" ("deal_id", "seq", "action", "actor_id", "details", "created_at") values ($1, (select coalesce(max("deal_history"."seq"), 0) + 1 from "deal_history" where "deal_history"."deal_id" = $2), $3, $4, $5, $6)`,
  },
  insertNotifications: {
    text: `insert into "notifications" (user_id, deal_id, kind, title, body, created_at) select party.id, "deals"."id", $1, $2, $3, $4::timestamptz from "deals" cross join lateral (values ("deals"."buyer_id"), ("deals"."seller_id")) as party(id) where "deals"."id" = $5 and party.id is distinct from $6::uuid`,
  },
  webhookEndpoints: {
    text: `select "id", "user_id", "url", "events", "secret", "created_at" from "webhook_endpoints" where "webhook_endpoints"."user_id" in ($1, $2)`,
  },
} as const;
