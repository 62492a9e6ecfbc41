import { travelRuleDocumentSchema, travelRulePreviewSchema } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadFileStore } from '../../files/load-file-store.js';
import { getDealTravelRule } from '../../travel-rule/get-deal-travel-rule.js';
import { previewDealTravelRule } from '../../travel-rule/preview-deal-travel-rule.js';
import { apiErrorSchema } from './error-schema.js';
import { principalOf } from './principal-of.js';

const dealIdParams = z.object({ id: z.uuid() });

/**
 * A deal's Travel Rule information (deals of $1,000 or more, ADR 024): the IVMS 101 document its
 * escrow exchanged, and, for its parties, what the rule asks of the deal before the escrow opens.
 */
export const travelRuleRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app;
  const fileStore = await loadFileStore({
    dataDir: config.dataDir,
    fileEncryptionKey: config.fileEncryptionKey,
  });
  const deps = { db: app.database.db, fileStore, masterKey: fileStore.masterKey, now: app.clock };
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/deals/:id/travel-rule',
    {
      // Names, addresses and identifiers of both parties: a signed-in session only, never an API key.
      config: { access: 'session' },
      schema: {
        tags: ['Trading'],
        summary: 'Export the deal’s Travel Rule information as an IVMS 101 JSON document',
        description:
          'For deals of $1,000 or more (valued by the stable leg), the originator and beneficiary of each leg ' +
          '(IVMS 101 natural or legal person, with the account: the originator’s refund address, the ' +
          'beneficiary’s payout address) are exchanged when the escrow opens. Open to the deal’s two parties ' +
          'and to compliance staff with a second factor (each staff read is recorded in the deal’s audit ' +
          'trail); 403 for anyone else. 404 when nothing was exchanged: the deal is below $1,000 or its escrow ' +
          'is not open yet.',
        params: dealIdParams,
        response: { 200: travelRuleDocumentSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => getDealTravelRule(deps, principalOf(request), request.params.id),
  );

  routes.get(
    '/deals/:id/travel-rule/preview',
    {
      config: { access: 'session' },
      schema: {
        tags: ['Trading'],
        summary: 'What the Travel Rule asks of the deal: your IVMS 101 person and what either party lacks',
        description:
          'For the deal’s parties (anyone else: 404). `gaps` names every required element a party’s records ' +
          'lack and `message` is the `TRAVEL_RULE_INCOMPLETE` refusal `POST /escrow/create` would answer now; ' +
          'the counterparty’s own data is shown only once the escrow opened (`GET /deals/{id}/travel-rule`).',
        params: dealIdParams,
        response: { 200: travelRulePreviewSchema, 404: apiErrorSchema },
      },
    },
    async (request) => previewDealTravelRule(deps, principalOf(request).userId, request.params.id),
  );
};
