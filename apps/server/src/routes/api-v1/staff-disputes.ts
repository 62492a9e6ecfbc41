import {
  disputeDecisionSchema,
  disputeSchema,
  staffDisputeCaseSchema,
  staffDisputeQueueQuerySchema,
  staffDisputeSummarySchema,
} from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireStaff } from '../../api/require-staff.js';
import { assignDispute } from '../../disputes/assign-dispute.js';
import { createDisputeDeps } from '../../disputes/create-dispute-deps.js';
import { decideDispute } from '../../disputes/decide-dispute.js';
import { getDisputeCase } from '../../disputes/get-dispute-case.js';
import { listDisputeQueue } from '../../disputes/list-dispute-queue.js';
import { readDisputeEvidence } from '../../disputes/read-dispute-evidence.js';
import { refuseOwnDispute } from '../../disputes/refuse-own-dispute.js';
import { sendEvidence } from './disputes.js';
import { principalOf } from './principal-of.js';

const idParams = z.object({ id: z.uuid() });

/**
 * The mediators' console under `/api/v1/staff/disputes`: the queue, a case with everything on it,
 * evidence downloads, taking a case and deciding it. 403 for anyone but a mediator with a second factor.
 */
export const staffDisputeRoutes: FastifyPluginAsync = async (app) => {
  const deps = await createDisputeDeps(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Registered inside the authenticated /api/v1 scope, whose hook has set `request.principal`.
  app.addHook('onRequest', async (request) => {
    requireStaff(request.principal, ['mediator'], 'The dispute console');
  });

  routes.get(
    '/',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Dispute resolution'],
        summary: 'The dispute queue: open disputes first, oldest first, with their deals and parties',
        querystring: staffDisputeQueueQuerySchema.extend({
          limit: z.coerce.number().int().min(1).max(200).default(100),
        }),
        response: { 200: z.object({ data: z.array(staffDisputeSummarySchema) }) },
      },
    },
    async (request) => ({
      data: await listDisputeQueue(deps.db, { status: request.query.status, limit: request.query.limit }),
    }),
  );

  routes.get(
    '/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Dispute resolution'],
        summary:
          'A case: the dispute, the deal, both CIS, terms versions, messages and the verified audit trail',
        params: idParams,
        response: { 200: staffDisputeCaseSchema },
      },
    },
    async (request) => {
      await refuseOwnDispute(deps.db, principalOf(request).userId, request.params.id);
      return getDisputeCase(deps, request.params.id);
    },
  );

  routes.get(
    '/:id/evidence/:evidence_id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Dispute resolution'],
        summary: 'An evidence file of the dispute, decrypted, with its content type',
        params: idParams.extend({ evidence_id: z.uuid() }),
      },
    },
    async (request, reply) => {
      await refuseOwnDispute(deps.db, principalOf(request).userId, request.params.id);
      return sendEvidence(
        reply,
        await readDisputeEvidence(deps, {
          disputeId: request.params.id,
          evidenceId: request.params.evidence_id,
        }),
      );
    },
  );

  routes.post(
    '/:id/assign',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Dispute resolution'],
        summary: 'Take the case (or take it over); recorded in the deal’s audit trail',
        params: idParams,
        response: { 200: disputeSchema },
      },
    },
    async (request) => assignDispute(deps, principalOf(request).userId, request.params.id),
  );

  routes.post(
    '/:id/decision',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Dispute resolution'],
        summary: 'Decide: release per terms, refund both, or split each leg; queued for on-chain execution',
        description:
          'split amounts are base units per leg to each party and must add up exactly to the leg ' +
          '(400 VALIDATION_FAILED otherwise). 409 CONFLICT when the dispute is decided already. On a deal ' +
          'disputed before its escrow opened, any decision cancels the deal and moves no money (none was ' +
          'deposited): the answer says so with `effect: deal_cancelled` and `amounts: null`. On an escrow ' +
          'with a leg holding less than its amount (disputed while it was being funded) release and split ' +
          'answer 422 INSUFFICIENT_BALANCE with `details.short_legs` (leg, required, received) and only a ' +
          'refund can be decided: they would pay one side out of a deposit the other never matched. From the ' +
          'case’s `escrow_decide_by` on (an hour before an Ethereum leg’s on-chain deadline) release and split ' +
          'answer 409 CONFLICT with `details.reason: settlement_window_closed`: only a refund can be decided.',
        params: idParams,
        body: disputeDecisionSchema,
        response: { 200: disputeSchema },
      },
    },
    async (request) => decideDispute(deps, principalOf(request).userId, request.params.id, request.body),
  );
};
