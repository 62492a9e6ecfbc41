import { createHash } from 'node:crypto';
import {
  approveDealCisSchema,
  attachDealCisSchema,
  cisSheetSchema,
  dealCisSchema,
  rejectDealCisSchema,
} from '@covenant/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachDealCis } from '../../cis/attach-deal-cis.js';
import { createCisDeps } from '../../cis/create-cis-deps.js';
import { createCisSheet } from '../../cis/create-cis-sheet.js';
import { getDealCis } from '../../cis/get-deal-cis.js';
import { listOwnCisSheets } from '../../cis/list-own-cis-sheets.js';
import { readCisUpload } from '../../cis/read-cis-upload.js';
import { readDealCisPdf } from '../../cis/read-deal-cis-pdf.js';
import { readOwnCisPdf } from '../../cis/read-own-cis-pdf.js';
import { reviewDealCis } from '../../cis/review-deal-cis.js';
import type { StoredFile } from '../../files/store-encrypted-file.js';
import { principalOf } from './principal-of.js';

const idParams = z.object({ id: z.uuid() });

/**
 * CIS exchange: a trader's Customer Information Sheets under `/cis`, and on a draft deal under
 * `/deals/{id}/cis` each party attaches one and reviews the other's. Anybody else's sheet or deal
 * is NOT_FOUND.
 */
export const cisRoutes: FastifyPluginAsync = async (app) => {
  const deps = await createCisDeps(app);
  // The PDF is read part by part with its own limit; the app's JSON body limit does not apply.
  await app.register(multipart);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/cis',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['CIS'],
        summary: 'Store a Customer Information Sheet (encrypted), with an optional signed PDF',
        description:
          'application/json, or multipart/form-data with the same fields and an optional file named file ' +
          '(the signed PDF: a PDF by content, at most 10 MB). Fields: legal_name, entity_type ' +
          '(individual|company), jurisdiction (ISO 3166-1 alpha-2 country code, e.g. CH), source_of_funds, ' +
          'assets (token symbols, e.g. BTC, USDC), size_min_usd and size_max_usd (the usual size of one ' +
          'trade in whole US dollars, integers from 0, the maximum at least the minimum), preferred_chains ' +
          '(BTC|ETH|SOL, at least one), settlement_window_hours (whole hours from 1 to 168 after the terms ' +
          'are agreed, the bounds of the funding deadline). In JSON the sizes and hours are numbers; in ' +
          'multipart they are decimal digits, and list fields repeat or are comma-separated.',
        consumes: ['application/json', 'multipart/form-data'],
        response: { 201: cisSheetSchema },
      },
    },
    async (request, reply) => {
      const { userId } = principalOf(request);
      const { form, pdf } = await readCisUpload(request);
      if (request.isMultipart()) {
        // The same key with the same fields and PDF replays the first answer; with others, 409.
        const sent = await app.claimIdempotencyKey(request, reply, {
          form,
          pdf: pdf && [pdf.filename, sha256(pdf.content)],
        });
        if (sent) return reply;
      }
      return reply.code(201).send(await createCisSheet(deps, userId, form, pdf));
    },
  );

  routes.get(
    '/cis',
    {
      config: { access: 'read' },
      schema: {
        tags: ['CIS'],
        summary: "The caller's Customer Information Sheets, newest first",
        response: { 200: z.object({ data: z.array(cisSheetSchema) }) },
      },
    },
    async (request) => ({ data: await listOwnCisSheets(deps, principalOf(request).userId) }),
  );

  routes.get(
    '/cis/:id/pdf',
    {
      config: { access: 'read' },
      schema: {
        tags: ['CIS'],
        summary: 'The signed PDF of one of your sheets',
        params: idParams,
      },
    },
    async (request, reply) =>
      sendPdf(reply, await readOwnCisPdf(deps, principalOf(request).userId, request.params.id)),
  );

  routes.get(
    '/deals/:id/cis',
    {
      config: { access: 'read' },
      schema: {
        tags: ['CIS'],
        summary: "A deal's CIS exchange: each party's attached sheet and its review",
        description:
          "The counterparty's sheet is shown only once you have attached yours: until then its side is null.",
        params: idParams,
        response: { 200: dealCisSchema },
      },
    },
    async (request) => getDealCis(deps, principalOf(request).userId, request.params.id),
  );

  routes.get(
    '/deals/:id/cis/:party/pdf',
    {
      config: { access: 'read' },
      schema: {
        tags: ['CIS'],
        summary: 'The signed PDF of the sheet a party attached to the deal',
        description: "The counterparty's PDF is 404 until you have attached your own sheet.",
        params: z.object({ id: z.uuid(), party: z.enum(['buyer', 'seller']) }),
      },
    },
    async (request, reply) =>
      sendPdf(
        reply,
        await readDealCisPdf(deps, principalOf(request).userId, request.params.id, request.params.party),
      ),
  );

  routes.post(
    '/deals/:id/cis',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['CIS'],
        summary:
          'Attach one of your sheets as your CIS for a draft deal (replaces a pending or rejected one)',
        params: idParams,
        body: attachDealCisSchema,
        response: { 200: dealCisSchema },
      },
    },
    async (request) =>
      attachDealCis(deps, principalOf(request).userId, request.params.id, request.body.cis_id),
  );

  routes.post(
    '/deals/:id/cis/approve',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['CIS'],
        summary: "Approve the counterparty's CIS; when both are approved the deal becomes cis_submitted",
        description:
          'cis_id names the sheet you reviewed: if the counterparty has attached another since, the answer ' +
          'is 409 CONFLICT (reason cis_changed) and nothing is approved. Attach your own sheet first ' +
          '(409 CONFLICT, reason own_cis_missing).',
        params: idParams,
        body: approveDealCisSchema,
        response: { 200: dealCisSchema },
      },
    },
    async (request) =>
      reviewDealCis(deps, principalOf(request).userId, request.params.id, {
        verdict: 'approved',
        cisId: request.body.cis_id,
      }),
  );

  routes.post(
    '/deals/:id/cis/reject',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['CIS'],
        summary: "Reject the counterparty's CIS with a comment; it may attach another",
        description:
          'cis_id names the sheet you reviewed: if the counterparty has attached another since, the answer ' +
          'is 409 CONFLICT (reason cis_changed) and nothing is rejected. Attach your own sheet first ' +
          '(409 CONFLICT, reason own_cis_missing).',
        params: idParams,
        body: rejectDealCisSchema,
        response: { 200: dealCisSchema },
      },
    },
    async (request) =>
      reviewDealCis(deps, principalOf(request).userId, request.params.id, {
        verdict: 'rejected',
        cisId: request.body.cis_id,
        comment: request.body.comment,
      }),
  );
};

function sendPdf(reply: FastifyReply, { file, content }: { file: StoredFile; content: Buffer }) {
  return reply
    .type('application/pdf')
    .header('Content-Disposition', `attachment; filename="${file.filename.replace(/[^\x20-\x7e]/g, '_')}"`)
    .header('Cache-Control', 'private, no-store')
    .send(content);
}

function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
