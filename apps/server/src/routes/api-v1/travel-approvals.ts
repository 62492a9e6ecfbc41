import { payoutSignatureSchema } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from './principal-of.js';

const params = z.object({ id: z.uuid(), item_id: z.uuid() });

/** Same forms as a release: an EIP-712 signature (Ethereum) or an ed25519 signature (Solana, base58 or hex). */
const approveBody = z
  .object({
    signature: payoutSignatureSchema
      .optional()
      .describe("The buyer's signature over the item's `signing_payload`; the seller sends none"),
  })
  .strict();

/**
 * `POST /deals/{id}/travel/{item}/approve`: a party approves the current quote of a travel item,
 * paid out of the stable leg's escrow once both have (the buyer signs the payout, the platform
 * co-signs it).
 */
export const travelApprovalRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    '/deals/:id/travel/:item_id/approve',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Meetings'],
        summary: 'Approve a travel quote: it is paid from the stable leg’s escrow once both parties approved',
        description:
          'The buyer (who deposited the stable leg) signs the item’s `signing_payload` in the same formats as a release; ' +
          'the seller approves without a signature. A second approval of the same quote changes nothing. ' +
          '409 TRAVEL_NOT_PAYABLE while the leg cannot pay it and still settle exactly (the details say what is missing), ' +
          'while the deal is disputed, or once it is settling.',
        params,
        body: approveBody,
        response: {
          200: z.object({
            changed: z.boolean().describe('False when this party had already approved this quote'),
          }),
        },
      },
    },
    async (request) => {
      const { userId } = principalOf(request);
      const { signature } = request.body;
      return app.escrow.approveTravel(userId, {
        dealId: request.params.id,
        itemId: request.params.item_id,
        approval: signature ? { signature } : null,
      });
    },
  );
};
