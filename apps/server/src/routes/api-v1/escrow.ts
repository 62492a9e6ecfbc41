import {
  devFundRequestSchema,
  devFundResponseSchema,
  escrowCreateRequestSchema,
  escrowCreateResponseSchema,
  escrowFundRequestSchema,
  escrowReleaseRequestSchema,
  escrowStatusSchema,
} from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from './error-schema.js';
import { principalOf } from './principal-of.js';

const security = [{ bearerAuth: [] }];
const errors = { 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema, 501: apiErrorSchema };

/**
 * The escrow of a deal: open it once the terms are agreed, follow its funding and settlement,
 * point at a deposit, approve a payout with the escrow key; on the devnet, fund a leg from the
 * devnet wallet.
 */
export const escrowRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const engine = app.escrow;

  routes.post(
    '/escrow/create',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Escrow'],
        summary: 'Open the escrow of a deal whose terms are agreed (idempotent)',
        description:
          'Deploys one escrow per leg at an address derived from the accepted terms and the three signing keys ' +
          '(buyer, seller, platform; each party registers its key with `POST /wallets/connect`). 201 when ' +
          'opened, 200 with the same escrow when it already was. A deal of $1,000 or more exchanges both ' +
          'parties’ Travel Rule information (IVMS 101, `GET /deals/{id}/travel-rule`) as it opens; 422 ' +
          '`TRAVEL_RULE_INCOMPLETE` when a party’s records lack a required element, named with whose in the ' +
          'message and in `details.missing`. 409 `CONFLICT` with `details.deploying` (leg, chain, ' +
          'deposit_address) while a leg’s escrow is sent but not yet mined: ask again shortly, nothing new is ' +
          'sent, and the escrow is answered once it is deployed.',
        security,
        body: escrowCreateRequestSchema,
        response: {
          200: escrowCreateResponseSchema,
          201: escrowCreateResponseSchema,
          ...errors,
          422: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const created = await engine.create(principalOf(request).userId, request.body.deal_id);
      return reply.code(created.created ? 201 : 200).send({
        escrow_id: created.escrowId,
        legs: created.legs.map((leg) => ({
          leg: leg.leg,
          chain: leg.chain,
          symbol: leg.symbol,
          amount: leg.amount,
          deposit_address: leg.depositAddress,
          deadline: leg.deadline.toISOString(),
          ...(leg.custody ? { custody: leg.custody } : {}),
        })),
      });
    },
  );

  routes.get(
    '/escrow/:id/status',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Escrow'],
        summary: 'Read an escrow’s funding and settlement',
        security,
        params: z.object({ id: z.uuid() }),
        response: { 200: escrowStatusSchema, 404: apiErrorSchema },
      },
    },
    async (request) => engine.status(principalOf(request).userId, { escrowId: request.params.id }),
  );

  routes.get(
    '/deals/:id/escrow',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Escrow'],
        summary: 'Read the escrow of a deal (404 until it is opened)',
        security,
        params: z.object({ id: z.uuid() }),
        response: { 200: escrowStatusSchema, 404: apiErrorSchema },
      },
    },
    async (request) => engine.status(principalOf(request).userId, { dealId: request.params.id }),
  );

  routes.post(
    '/escrow/fund',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Escrow'],
        summary: 'Point at your deposit so it is picked up at once',
        description:
          'The transaction is read from the chain and only what it paid into your leg’s deposit address ' +
          'counts; `amount` (base units) must equal that. `ESCROW_ALREADY_FUNDED` when your leg is funded.',
        security,
        body: escrowFundRequestSchema,
        response: { 202: escrowStatusSchema, ...errors },
      },
    },
    async (request, reply) => {
      const userId = principalOf(request).userId;
      const { escrowId } = await engine.reportDeposit(userId, {
        dealId: request.body.deal_id,
        transactionHash: request.body.transaction_hash,
        chain: request.body.chain,
        amount: BigInt(request.body.amount),
      });
      return reply.code(202).send(await engine.status(userId, { escrowId }));
    },
  );

  routes.post(
    '/escrow/release',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Escrow'],
        summary: 'Approve a leg’s payout with your escrow key’s signature',
        description:
          'Name the payout by `deal_id` and `leg`, or by `escrow_id` and `side` (your side: your approval of ' +
          'the leg you give, the stable leg for the buyer and the asset leg for the seller; `FORBIDDEN` when ' +
          'it is not your side). Sign the leg’s `signing_payload` (from the status) with the key in `signer`. Ethereum: sign the ' +
          'EIP-712 typed data (also `release_typed_data`, with `signer_address`) and send `signature`. ' +
          'Bitcoin: sign the PSBT and send it back as `psbt`. Solana: sign the message bytes (base64 in ' +
          '`signing_payload.data`, format `solana_message`) with your ed25519 key and send the 64-byte ' +
          'signature as `signature`, in base58 or hex. Exactly one of `signature` and `psbt`; ' +
          '`APPROVAL_FORM_MISMATCH` (422) when it is not the form of the leg’s chain. ' +
          'The platform co-signs and sends both legs once both giving parties have approved. ' +
          '`INVALID_SIGNATURE` when the approval is not your registered key’s over this payout.',
        security,
        body: escrowReleaseRequestSchema,
        response: { 202: escrowStatusSchema, 403: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const userId = principalOf(request).userId;
      const body = request.body;
      // The schema lets through exactly one of the two forms, each complete.
      const target =
        body.escrow_id !== undefined && body.side !== undefined
          ? { escrowId: body.escrow_id, side: body.side }
          : { dealId: body.deal_id ?? '', leg: body.leg ?? 'asset' };
      const { escrowId } = await engine.approve(
        userId,
        target,
        body.psbt === undefined ? { signature: body.signature ?? '' } : { psbt: body.psbt },
      );
      return reply.code(202).send(await engine.status(userId, { escrowId }));
    },
  );

  // Only in the embedded mode, and then only on this machine or for an admin with a second factor.
  if (app.config.env !== 'production' && app.chains.chains.some((chain) => chain.devnet)) {
    routes.post(
      '/dev/fund',
      {
        config: { access: 'trade', devOnly: true },
        schema: {
          tags: ['Escrow'],
          summary: 'Devnet only: fund a leg from the devnet wallet',
          description:
            'Sends the leg’s amount (or `amount`, to try under- and over-funding) to its deposit address. ' +
            'Exists only with the local devnet outside production, and answers only requests from the ' +
            'server’s own machine or an admin whose session passed a second factor; anyone else gets 404.',
          security,
          body: devFundRequestSchema,
          response: { 200: devFundResponseSchema, ...errors },
        },
      },
      async (request) => {
        const funded = await engine.devFund(principalOf(request).userId, {
          dealId: request.body.deal_id,
          leg: request.body.leg,
          ...(request.body.amount ? { amount: BigInt(request.body.amount) } : {}),
        });
        return {
          leg: funded.leg,
          deposit_address: funded.depositAddress,
          amount: funded.amount.toString(),
          transaction_hash: funded.transactionHash,
        };
      },
    );
  }
};
