import { kycSubmissionSchema, multiLineText, staffKycSubmissionSchema, tradingTiers } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { approveKycSubmission } from '../../kyc/approve-kyc-submission.js';
import { createKycDeps } from '../../kyc/create-kyc-deps.js';
import { getKycSubmission } from '../../kyc/get-kyc-submission.js';
import { listKycSubmissions } from '../../kyc/list-kyc-submissions.js';
import { readKycDocument } from '../../kyc/read-kyc-document.js';
import { rejectKycSubmission } from '../../kyc/reject-kyc-submission.js';
import { requireComplianceStaff } from '../../kyc/require-compliance-staff.js';
import { principalOf } from './index.js';

const idParams = z.object({ id: z.uuid() });

/**
 * The compliance console's API under `/api/v1/staff/kyc`: the queue, a submission, its decrypted
 * documents, approve with a tier, reject with a reason. 401 without a token, 403 without the
 * compliance role.
 */
export const apiV1StaffKycRoutes: FastifyPluginAsync = async (app) => {
  const deps = await createKycDeps(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Registered inside the authenticated /api/v1 scope, whose hook has set `request.principal`.
  app.addHook('onRequest', async (request) => {
    requireComplianceStaff(request.principal);
  });

  routes.get(
    '/',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['KYC review'],
        summary: 'KYC submissions with their traders; pending ones oldest first',
        querystring: z.object({
          status: z.enum(['pending', 'approved', 'rejected']).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(100),
        }),
        response: { 200: z.object({ data: z.array(staffKycSubmissionSchema) }) },
      },
    },
    async (request) => ({
      data: await listKycSubmissions(deps.db, { status: request.query.status, limit: request.query.limit }),
    }),
  );

  routes.get(
    '/:id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['KYC review'],
        summary: 'One submission with its trader',
        params: idParams,
        response: { 200: staffKycSubmissionSchema },
      },
    },
    async (request) => getKycSubmission(deps.db, request.params.id),
  );

  routes.get(
    '/:id/documents/:document_id',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['KYC review'],
        summary: 'A document of the submission, decrypted, with its content type',
        params: z.object({ id: z.uuid(), document_id: z.uuid() }),
      },
    },
    async (request, reply) => {
      const { file, content } = await readKycDocument(deps, request.params.id, request.params.document_id);
      return reply
        .type(file.contentType)
        .header('Content-Disposition', `inline; filename="${file.filename.replace(/[^\x20-\x7e]/g, '_')}"`)
        .header('Cache-Control', 'private, no-store')
        .send(content);
    },
  );

  routes.post(
    '/:id/approve',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['KYC review'],
        summary: "Approve: the trader's profile becomes verified and KYC-complete at the tier",
        params: idParams,
        body: z.object({
          tier: z.enum(tradingTiers),
          limit_usd: z
            .string()
            .regex(/^[1-9]\d{0,14}$/, 'a whole number of US dollars, e.g. "2500000"')
            .optional()
            .describe('per-transaction limit, whole US dollars; required for institutional only'),
        }),
        response: { 200: kycSubmissionSchema },
      },
    },
    async (request) =>
      approveKycSubmission(deps, {
        submissionId: request.params.id,
        reviewerId: principalOf(request).userId,
        tier: request.body.tier,
        limitUsd: request.body.limit_usd === undefined ? undefined : BigInt(request.body.limit_usd),
      }),
  );

  routes.post(
    '/:id/reject',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['KYC review'],
        summary: 'Reject with a reason the trader reads in the e-mail',
        params: idParams,
        body: z.object({ reason: multiLineText().min(3).max(1000) }),
        response: { 200: kycSubmissionSchema },
      },
    },
    async (request) =>
      rejectKycSubmission(deps, {
        submissionId: request.params.id,
        reviewerId: principalOf(request).userId,
        reason: request.body.reason,
      }),
  );
};
