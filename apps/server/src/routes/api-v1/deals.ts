import {
  dealAuditTrailSchema,
  dealSchema,
  dealTermsHistorySchema,
  dealWithHistorySchema,
} from '@covenant/domain';
import fastJson, { type Schema } from 'fast-json-stringify';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recentAuthenticationCheck } from '../../api/enforce-api-access.js';
import { acceptDealTerms } from '../../deals/accept-deal-terms.js';
import { cancelDeal } from '../../deals/cancel-deal.js';
import { createDeal } from '../../deals/create-deal.js';
import type { DealView } from '../../deals/deal-view.js';
import { getDeal } from '../../deals/get-deal.js';
import { getDealAudit } from '../../deals/get-deal-audit.js';
import { getDealTerms } from '../../deals/get-deal-terms.js';
import { listDeals } from '../../deals/list-deals.js';
import { proposeDealTerms } from '../../deals/propose-deal-terms.js';
import { setDealAddresses } from '../../deals/set-deal-addresses.js';
import { enqueueWebhookEvent } from '../../webhooks/enqueue-webhook-event.js';
import {
  acceptDealTermsSchema,
  cancelDealSchema,
  dealAddressesSchema,
  dealTermsChangeSchema,
  listDealsQuerySchema,
  newDealSchema,
} from './deal-schemas.js';
import { principalOf } from './principal-of.js';

const dealListSchema = z.object({ data: z.array(dealSchema), has_more: z.boolean() });
// fast-json-stringify takes draft-07 and types its schema loosely; zod's output is a valid one.
const dealListJsonSchema = z.toJSONSchema(dealListSchema, { io: 'output', target: 'draft-7' }) as Schema;
const dealJsonSchema = z.toJSONSchema(dealSchema, { io: 'output', target: 'draft-7' }) as Schema;
const dealIdParams = z.object({ id: z.uuid() });
/** A proposal answers with its version number first, then the deal as it now stands. */
const proposedTermsSchema = dealSchema.extend({
  version: z.number().int().describe('The version this proposal created (equal to terms_version)'),
});

/**
 * `/deals`: create, list and read the caller's deals; propose, counter-propose and accept versions of
 * their terms and set the caller's addresses; cancel them; read their audit trail.
 */
export const dealRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const terms = { db, now: app.clock, bitcoinNetwork: app.config.bitcoinNetwork };
  const webhooks = { db, now: app.clock, jobs: app.jobs, deliverJob: app.deliverWebhookJob };
  const announce = async (deal: DealView) => {
    await enqueueWebhookEvent(webhooks, [deal.buyer_id, deal.seller_id], 'deal.created', {
      deal_id: deal.id,
      buyer_id: deal.buyer_id,
      seller_id: deal.seller_id,
      asset_chain: deal.asset_chain,
      created_at: deal.created_at,
    }).catch((error: unknown) =>
      app.log.error({ err: error, deal: deal.id }, 'deal.created webhooks not queued'),
    );
  };

  routes.post(
    '/deals',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Trading'],
        summary: 'Create a deal as buyer with a verified counterparty (status draft)',
        security: [{ bearerAuth: [] }],
        body: newDealSchema,
        response: { 201: dealSchema },
      },
      // Written from its schema by fast-json-stringify, as the list is (see below).
      serializerCompiler: () => fastJson(dealJsonSchema),
    },
    async (request, reply) => {
      const deal = await createDeal(
        { db, now: app.clock, dealCreated: announce },
        principalOf(request).userId,
        request.body,
      );
      return reply.code(201).send(deal);
    },
  );

  routes.get(
    '/deals',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Trading'],
        summary: 'List your deals as buyer or seller, newest first',
        security: [{ bearerAuth: [] }],
        querystring: listDealsQuerySchema,
        response: { 200: dealListSchema },
      },
      // The busiest answer of the API is written by fast-json-stringify from its schema (compiled once
      // here), which emits exactly the schema's fields, rather than zod parsing all twenty deals before
      // JSON.stringify: measured, the list goes from 0.61 to about 0.68 of a bare node:http handler.
      serializerCompiler: () => fastJson(dealListJsonSchema),
    },
    async (request) => listDeals(db, principalOf(request).userId, request.query),
  );

  routes.get(
    '/deals/:id',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Trading'],
        summary: 'Read one of your deals with its history',
        security: [{ bearerAuth: [] }],
        params: dealIdParams,
        response: { 200: dealWithHistorySchema },
      },
    },
    async (request) => getDeal(db, principalOf(request).userId, request.params.id),
  );

  routes.get(
    '/deals/:id/terms',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Trading'],
        summary: 'Read every version of a deal’s terms and the accepted one with its terms hash',
        security: [{ bearerAuth: [] }],
        params: dealIdParams,
        response: { 200: dealTermsHistorySchema },
      },
    },
    async (request) => getDealTerms(terms, principalOf(request).userId, request.params.id),
  );

  routes.put(
    '/deals/:id/terms',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Trading'],
        summary: 'Propose a new version of a deal’s terms (only until its escrow opens)',
        description:
          'The latest version with the given fields changed becomes version `terms_version` + 1. A proposal ' +
          'by the party that did not propose the latest version is a counter-proposal. A proposal after ' +
          'agreement reopens the negotiation (status back to cis_submitted, accepted version and hash cleared). ' +
          'Once the escrow is open (it keeps the terms it opened on), and on funded or closed deals, the ' +
          'answer is 409 DEAL_NOT_ACTIVE (details.reason "escrow_opened" for the former).',
        security: [{ bearerAuth: [] }],
        params: dealIdParams,
        body: dealTermsChangeSchema,
        response: { 200: proposedTermsSchema },
      },
    },
    async (request) => {
      const deal = await proposeDealTerms(
        { db, now: app.clock },
        principalOf(request).userId,
        request.params.id,
        request.body,
      );
      return { version: deal.terms_version, ...deal };
    },
  );

  routes.post(
    '/deals/:id/terms/accept',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Trading'],
        summary: 'Accept the exact latest version of the terms proposed by the other party',
        description:
          'Only from cis_submitted (else 409 INVALID_STATE_TRANSITION), and never once the deal’s escrow ' +
          'is open (409 DEAL_NOT_ACTIVE, details.reason "escrow_opened"). A version that is not the latest ' +
          'answers 409 CONFLICT with details.latest_version; accepting your own proposal answers 409 ' +
          'INVALID_STATE_TRANSITION with details.reason "own_proposal"; 422 ADDRESSES_REQUIRED names in ' +
          'details.missing whose addresses are not set (details.invalid: addresses that no longer fit the ' +
          'agreed chains). On success the deal is terms_agreed with accepted_terms_version, terms_agreed_at ' +
          'and terms_hash (docs/audit-trail.md, "Terms hash").',
        security: [{ bearerAuth: [] }],
        params: dealIdParams,
        body: acceptDealTermsSchema,
        response: { 200: dealSchema },
      },
    },
    async (request) =>
      acceptDealTerms(terms, principalOf(request).userId, request.params.id, request.body.version),
  );

  routes.put(
    '/deals/:id/addresses',
    {
      config: { access: 'trade', sensitiveWhen: 'replacing addresses already set' },
      schema: {
        tags: ['Trading'],
        summary: 'Set your own payout and refund addresses on a deal',
        description:
          'Payout on the chain you receive on (buyer: asset_chain, seller: stable_chain), refund on the ' +
          'chain you deposit from (buyer: stable_chain, seller: asset_chain), each checked for its chain’s ' +
          'format and checksum (400 VALIDATION_FAILED with details.fields). A change after agreement ' +
          'reopens the negotiation; once the escrow is open (it pays the addresses it opened with), and on ' +
          'funded or closed deals, the answer is 409 DEAL_NOT_ACTIVE.',
        security: [{ bearerAuth: [] }],
        params: dealIdParams,
        body: dealAddressesSchema,
        response: { 200: dealSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const confirmRecent = await recentAuthenticationCheck(app, principal);
      return setDealAddresses(terms, principal.userId, request.params.id, request.body, confirmRecent);
    },
  );

  routes.post(
    '/deals/:id/cancel',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Trading'],
        summary: 'Cancel a deal before any funding (either party); the reason goes into the audit trail',
        security: [{ bearerAuth: [] }],
        params: dealIdParams,
        body: cancelDealSchema,
        response: { 200: dealSchema },
      },
    },
    async (request) =>
      cancelDeal({ db, now: app.clock }, principalOf(request).userId, request.params.id, request.body.reason),
  );

  routes.get(
    '/deals/:id/audit',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Trading'],
        summary: 'Read a deal’s hash-chained audit trail, verified afresh',
        security: [{ bearerAuth: [] }],
        params: dealIdParams,
        response: { 200: dealAuditTrailSchema },
      },
    },
    async (request) => getDealAudit(db, principalOf(request).userId, request.params.id),
  );
};
