import { AppError } from '@covenant/domain';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  applyRateLimit,
  decisionUnder,
  enforceRateLimit,
  rateLimitWindowSeconds,
} from '../../api/apply-rate-limit.js';
import { enforceApiAccess } from '../../api/enforce-api-access.js';
import { honourIdempotencyKeys } from '../../api/honour-idempotency-keys.js';
import { type IdentifiedCaller, identifyCaller } from '../../api/identify-caller.js';
import type { Principal } from '../../api/principal.js';
import { restrictDeclaredAccess } from '../../api/require-access-declarations.js';
import { restrictDevRoutes } from '../../api/restrict-dev-routes.js';
import { createVerifiedTokenCache } from '../../api/verified-token-cache.js';
import { createAuthDeps } from '../../auth/create-auth-deps.js';
import { networkOfAddress } from '../../auth/network-of-address.js';
import type { RateLimitDecision } from '../../plugins/rate-limit/rate-limiter.js';
import { apiKeyRoutes } from './api-keys.js';
import { apiV1AuthRoutes } from './auth.js';
import { chainRoutes } from './chains.js';
import { apiV1ChatRoutes } from './chat.js';
import { cisRoutes } from './cis.js';
import { dealAuditExportRoutes } from './deal-audit-export.js';
import { dealRoomRoutes } from './deal-room.js';
import { dealRoutes } from './deals.js';
import { apiDescriptionRoutes, collectOpenApi } from './describe-api.js';
import { disputeRoutes } from './disputes.js';
import { escrowRoutes } from './escrow.js';
import { escrowKeyRoutes } from './escrow-key.js';
import { apiV1KycRoutes } from './kyc.js';
import { meetingRoutes } from './meetings.js';
import { apiV1PartnerRoutes } from './partners.js';
import { principalOf } from './principal-of.js';
import { apiV1ProfileRoutes } from './profile.js';
import { staffAlertRoutes } from './staff-alerts.js';
import { apiV1StaffChatRoutes } from './staff-chat.js';
import { staffDealRoutes } from './staff-deals.js';
import { staffDisputeRoutes } from './staff-disputes.js';
import { apiV1StaffKycRoutes } from './staff-kyc.js';
import { staffTravelRoutes } from './staff-travel.js';
import { staffUserRoutes } from './staff-users.js';
import { apiV1SupportRoutes } from './support.js';
import { apiV1SupportStaffRoutes } from './support-staff.js';
import { travelRoutes } from './travel.js';
import { travelApprovalRoutes } from './travel-approvals.js';
import { travelRuleRoutes } from './travel-rule.js';
import { walletRoutes } from './wallets.js';
import { webhookRoutes } from './webhooks.js';

export { principalOf } from './principal-of.js';

/**
 * The public REST API under /api/v1. Public routes (login, refresh, the API description) count
 * against the caller's IP; every other route lives in the authenticated scope below, which
 * establishes `request.principal` (session or API key), counts the request against that user's or
 * key's hourly limit for their tier, and honours `Idempotency-Key` on POST.
 */
export const apiV1Routes: FastifyPluginAsync = async (app) => {
  app.decorateRequest('principal', null);
  await collectOpenApi(app, app.prefix);
  // Unknown /api/v1 paths answer like every other API response, rate-limit headers included.
  app.setNotFoundHandler(async (request, reply) => {
    await applyRateLimit(
      app.rateLimiter,
      reply,
      `api:ip:${networkOfAddress(request.ip)}`,
      app.config.apiRateLimits.standard,
    );
    throw new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`);
  });
  // Before any authentication: to callers they refuse, dev-only routes are unknown paths, not 401s.
  app.addHook('onRequest', restrictDevRoutes(app));

  await app.register(async (publicRoutes) => {
    restrictDeclaredAccess(publicRoutes, ['public'], 'unauthenticated');
    publicRoutes.addHook('onRequest', async (request, reply) => {
      await applyRateLimit(
        app.rateLimiter,
        reply,
        `api:ip:${networkOfAddress(request.ip)}`,
        app.config.apiRateLimits.standard,
      );
    });
    await publicRoutes.register(apiV1AuthRoutes, { prefix: '/auth' });
    await publicRoutes.register(apiDescriptionRoutes, { document: () => app.swagger() });
    await publicRoutes.register(apiV1SupportRoutes, { prefix: '/support' });
    await publicRoutes.register(apiV1ChatRoutes, { prefix: '/chat' });
    await publicRoutes.register(chainRoutes);
  });

  await app.register(async (authenticated) => {
    // Every route here needs a Bearer token; the API description says so for each of them.
    authenticated.addHook('onRoute', (route) => {
      route.schema = { security: [{ bearerAuth: [] }], ...route.schema };
    });
    restrictDeclaredAccess(
      authenticated,
      ['read', 'trade', 'session', 'sensitive', 'staff'],
      'authenticated',
    );
    authenticateEveryRequest(authenticated);
    // Each route's declared access (ADR 013), once the caller is known.
    enforceApiAccess(authenticated);
    honourIdempotencyKeys(authenticated, app.database.db, principalOf, app.fileMasterKey);
    // Each area registers its routes here.
    await authenticated.register(dealRoutes);
    await authenticated.register(dealAuditExportRoutes);
    await authenticated.register(cisRoutes);
    await authenticated.register(disputeRoutes);
    await authenticated.register(travelRoutes);
    await authenticated.register(dealRoomRoutes);
    await authenticated.register(meetingRoutes);
    await authenticated.register(travelApprovalRoutes);
    await authenticated.register(travelRuleRoutes);
    await authenticated.register(staffDisputeRoutes, { prefix: '/staff/disputes' });
    await authenticated.register(staffTravelRoutes, { prefix: '/staff/travel' });
    await authenticated.register(staffUserRoutes, { prefix: '/staff' });
    await authenticated.register(staffAlertRoutes, { prefix: '/staff' });
    await authenticated.register(staffDealRoutes, { prefix: '/staff' });
    await authenticated.register(webhookRoutes);
    await authenticated.register(escrowRoutes);
    await authenticated.register(walletRoutes);
    await authenticated.register(escrowKeyRoutes);
    await authenticated.register(apiKeyRoutes);
    await authenticated.register(apiV1SupportStaffRoutes, { prefix: '/staff/support' });
    await authenticated.register(apiV1StaffChatRoutes, { prefix: '/staff/chat' });
    await authenticated.register(apiV1ProfileRoutes, { prefix: '/user' });
    await authenticated.register(apiV1PartnerRoutes, { prefix: '/partners' });
    await authenticated.register(apiV1KycRoutes, { prefix: '/kyc' });
    await authenticated.register(apiV1StaffKycRoutes, { prefix: '/staff/kyc' });
  });
};

function authenticateEveryRequest(app: FastifyInstance): void {
  const deps = { ...createAuthDeps(app), verifiedTokens: createVerifiedTokenCache() };
  const limits = app.config.apiRateLimits;
  const ceiling = Math.max(limits.standard, limits.premium);
  const count = (key: string) => app.rateLimiter.consume(key, ceiling, rateLimitWindowSeconds);
  app.addHook('onRequest', async (request, reply) => {
    // Refused callers are counted too (by address), so guessing tokens or API keys costs the same budget.
    const refuse = async (error: unknown): Promise<never> => {
      await applyRateLimit(app.rateLimiter, reply, `api:ip:${networkOfAddress(request.ip)}`, limits.standard);
      throw error;
    };
    const caller = await identifyCaller(deps, request.headers.authorization).catch(refuse);
    const [principal, counted] = await loadAndCount(caller, count, refuse);
    const limit = limits[principal.tier];
    enforceRateLimit(reply, limit, decisionUnder(counted, ceiling, limit, app.clock()));
    request.principal = principal;
  });
}

/**
 * Confirms the caller in the database and counts the request against its own budget. A session
 * token's signature already proved its user, so the two run side by side (one round trip less); an
 * API key is only a claim until the database knows it, so it is counted once found: a made-up or
 * revoked key is refused and counted by address like a bad token, and leaves no counter behind.
 */
async function loadAndCount(
  caller: IdentifiedCaller,
  count: (key: string) => Promise<RateLimitDecision>,
  refuse: (error: unknown) => Promise<never>,
): Promise<[Principal, RateLimitDecision]> {
  if (caller.proven) return Promise.all([caller.load().catch(refuse), count(caller.rateLimitKey)]);
  const principal = await caller.load().catch(refuse);
  return [principal, await count(caller.rateLimitKey)];
}
