import { createHash } from 'node:crypto';
import { AppError, disputeSchema } from '@covenant/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addDisputeEvidence } from '../../disputes/add-dispute-evidence.js';
import { createDisputeDeps } from '../../disputes/create-dispute-deps.js';
import { findPartyDeal } from '../../disputes/find-party-deal.js';
import { listDealDisputes } from '../../disputes/list-deal-disputes.js';
import { openDispute } from '../../disputes/open-dispute.js';
import { readDisputeEvidence } from '../../disputes/read-dispute-evidence.js';
import { parseOpenDispute, readDisputeForm } from '../../disputes/read-dispute-form.js';
import type { StoredFile } from '../../files/store-encrypted-file.js';
import { principalOf } from './principal-of.js';

const dealIdParams = z.object({ id: z.uuid() });
const disputeParams = z.object({ id: z.uuid(), dispute_id: z.uuid() });

/**
 * Disputes opened by a deal's parties under `/deals/{id}/disputes`: open one (JSON, or multipart
 * with evidence), read them, add evidence while open, download evidence. Anybody else gets 404.
 */
export const disputeRoutes: FastifyPluginAsync = async (app) => {
  const deps = await createDisputeDeps(app);
  // Evidence streams are read part by part with their own limits; the JSON body limit does not apply.
  await app.register(multipart);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/deals/:id/disputes',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Disputes'],
        summary: 'Dispute a deal once terms are agreed or the escrow is funded (status disputed)',
        description:
          'JSON {reason} (20–4000 characters), or multipart/form-data with the field reason and 0–5 files ' +
          'named evidence (PDF, PNG or JPEG by content, at most 10 MB each), stored encrypted. ' +
          '409 INVALID_STATE_TRANSITION from any other status (a deal already disputed included); ' +
          '409 CONFLICT (`details.reason` `settlement_under_way`) once a leg of the settlement has been ' +
          'paid out: the other leg is owed and follows.',
        consumes: ['application/json', 'multipart/form-data'],
        params: dealIdParams,
        response: { 201: disputeSchema },
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      if (!request.isMultipart()) {
        // JSON requests had their Idempotency-Key claimed before the handler.
        const dispute = parseOpenDispute(request.body);
        return reply.code(201).send(await openDispute(deps, userId, request.params.id, dispute, []));
      }
      const { fields, uploads } = await readDisputeForm(request);
      const dispute = parseOpenDispute(fields);
      // The same key with the same reason and files replays the first answer; with others, 409.
      const sent = await app.claimIdempotencyKey(request, reply, {
        dispute,
        evidence: uploads.map((upload) => [upload.filename, sha256(upload.content)]),
      });
      if (sent) return reply;
      return reply.code(201).send(await openDispute(deps, userId, request.params.id, dispute, uploads));
    },
  );

  routes.get(
    '/deals/:id/disputes',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Disputes'],
        summary: "A deal's disputes, oldest first, with evidence metadata and any decision",
        params: dealIdParams,
        response: { 200: z.object({ data: z.array(disputeSchema) }) },
      },
    },
    async (request) => ({
      data: await listDealDisputes(deps, principalOf(request).userId, request.params.id),
    }),
  );

  routes.post(
    '/deals/:id/disputes/:dispute_id/evidence',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Disputes'],
        summary: 'Add 1–5 evidence files to an open dispute',
        description:
          'multipart/form-data with 1–5 files named evidence (PDF, PNG or JPEG by content, at most 10 MB each). ' +
          '409 CONFLICT once the dispute is decided.',
        consumes: ['multipart/form-data'],
        params: disputeParams,
        response: { 200: disputeSchema },
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      if (!request.isMultipart()) {
        throw new AppError('VALIDATION_FAILED', 'Send evidence as multipart/form-data');
      }
      const { uploads } = await readDisputeForm(request);
      const sent = await app.claimIdempotencyKey(request, reply, {
        evidence: uploads.map((upload) => [upload.filename, sha256(upload.content)]),
      });
      if (sent) return reply;
      const { id, dispute_id } = request.params;
      return reply.send(await addDisputeEvidence(deps, userId, id, dispute_id, uploads));
    },
  );

  routes.get(
    '/deals/:id/disputes/:dispute_id/evidence/:evidence_id',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Disputes'],
        summary: 'An evidence file of a dispute, decrypted, with its content type',
        params: disputeParams.extend({ evidence_id: z.uuid() }),
      },
    },
    async (request, reply) => {
      const { id, dispute_id, evidence_id } = request.params;
      await findPartyDeal(deps.db, principalOf(request).userId, id);
      const evidence = await readDisputeEvidence(deps, {
        dealId: id,
        disputeId: dispute_id,
        evidenceId: evidence_id,
      });
      return sendEvidence(reply, evidence);
    },
  );
};

/** Sends a decrypted evidence file as a private download. */
export function sendEvidence(reply: FastifyReply, { file, content }: { file: StoredFile; content: Buffer }) {
  return reply
    .type(file.contentType)
    .header('Content-Disposition', `attachment; filename="${file.filename.replace(/[^\x20-\x7e]/g, '_')}"`)
    .header('Cache-Control', 'private, no-store')
    .send(content);
}

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
