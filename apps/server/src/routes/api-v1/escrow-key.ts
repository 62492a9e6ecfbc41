import { AppError, escrowKeyRequestSchema, escrowKeyResponseSchema } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { findEscrowKey, type StoredEscrowKey, saveEscrowKey } from '../../wallets/escrow-key-store.js';
import { apiErrorSchema } from './error-schema.js';
import { principalOf } from './principal-of.js';

/**
 * `PUT` and `GET /wallets/escrow-key`: the caller's escrow seed, encrypted in the browser with a
 * password the server never sees (DESIGN §6). Only the caller's own key is ever read or written.
 */
export const escrowKeyRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

  routes.put(
    '/wallets/escrow-key',
    {
      config: { access: 'sensitive' },
      schema: {
        tags: ['Wallets'],
        summary:
          'Store your escrow seed, encrypted in your browser, and register its Ethereum address as your ' +
          'signer; replacing it is refused while an escrow the old address signs for is funded',
        body: escrowKeyRequestSchema,
        response: { 200: escrowKeyResponseSchema, 400: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request) => {
      const key = await saveEscrowKey(
        { db, now: app.clock, bitcoinNetwork: app.config.bitcoinNetwork },
        principalOf(request).userId,
        request.body,
      );
      return toResponse(key);
    },
  );

  routes.get(
    '/wallets/escrow-key',
    {
      config: { access: 'session' },
      schema: {
        tags: ['Wallets'],
        summary: 'Your encrypted escrow seed, to unlock in your browser with your escrow password',
        response: { 200: escrowKeyResponseSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const key = await findEscrowKey(db, principalOf(request).userId);
      if (!key) throw new AppError('NOT_FOUND', 'No escrow key yet');
      return toResponse(key);
    },
  );
};

function toResponse(key: StoredEscrowKey) {
  return {
    ciphertext: key.ciphertext,
    encryption: key.encryption,
    ethereum_address: key.ethereumAddress,
    created_at: key.createdAt.toISOString(),
    updated_at: key.updatedAt.toISOString(),
  };
}
