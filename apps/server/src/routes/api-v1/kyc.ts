import { createHash } from 'node:crypto';
import { kycSubmissionSchema } from '@covenant/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createKycDeps } from '../../kyc/create-kyc-deps.js';
import { listOwnKycSubmissions } from '../../kyc/list-own-kyc-submissions.js';
import { readKycForm } from '../../kyc/read-kyc-form.js';
import { submitKyc } from '../../kyc/submit-kyc.js';
import { principalOf } from './index.js';

/** `POST /api/v1/kyc` (multipart) and `GET /api/v1/kyc`: a trader's own verification requests. */
export const apiV1KycRoutes: FastifyPluginAsync = async (app) => {
  const deps = await createKycDeps(app);
  // Streams are read part by part with the document limits; the app's JSON body limit does not apply.
  await app.register(multipart);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/',
    {
      config: { access: 'session' },
      schema: {
        tags: ['KYC'],
        summary: 'Ask to be verified: identity or company details and 1–5 documents',
        description:
          'multipart/form-data with the fields subject_type (individual|company), legal_name, country ' +
          '(ISO 3166-1 alpha-2), date_of_birth (YYYY-MM-DD, individuals, 18 or older), ' +
          'place_of_birth_city and place_of_birth_country (ISO 3166-1 alpha-2) (individuals), ' +
          'registration_number (companies), registration_authority (companies, optional: the GLEIF code, ' +
          'RA and 6 digits, of the register that issued a number that is no LEI), address, town_name ' +
          '(the town or city of the address), requested_tier (basic|enhanced|institutional) and ' +
          '1–5 files named documents (PDF, PNG or JPEG by content, at most 10 MB each). ' +
          '409 CONFLICT while an earlier request is pending.',
        consumes: ['multipart/form-data'],
        response: { 201: kycSubmissionSchema },
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const { application, uploads } = await readKycForm(request, deps.now().toISOString().slice(0, 10));
      // The same key with the same fields and files replays the first answer; with others, 409.
      const sent = await app.claimIdempotencyKey(request, reply, {
        application,
        documents: uploads.map((upload) => [upload.filename, sha256(upload.content)]),
      });
      if (sent) return reply;
      const submission = await submitKyc(deps, userId, application, uploads);
      return reply.code(201).send(submission);
    },
  );

  routes.get(
    '/',
    {
      // Identity data (legal name, birth, address): a signed-in session only, never an API key.
      config: { access: 'session' },
      schema: {
        tags: ['KYC'],
        summary: "The caller's verification requests, newest first",
        response: { 200: z.object({ data: z.array(kycSubmissionSchema) }) },
      },
    },
    async (request) => ({ data: await listOwnKycSubmissions(deps.db, principalOf(request).userId) }),
  );
};

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
