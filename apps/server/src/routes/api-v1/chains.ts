import { escrowChains } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isLocalRequest } from '../../api/restrict-dev-routes.js';
import type { ChainInfo } from '../../chains/chain-registry.js';

const chainSchema = z.object({
  chain: z.enum(escrowChains),
  network: z
    .enum(['mainnet', 'testnet', 'regtest', 'localnet', 'devnet', 'mainnet-beta'])
    .optional()
    .describe(
      'Bitcoin: the network whose addresses payout and refund addresses must be (mainnet, testnet, ' +
        'regtest). Solana: the cluster (mainnet-beta, devnet, or localnet for the embedded devnet)',
    ),
  chain_id: z
    .number()
    .int()
    .optional()
    .describe('Ethereum: the EIP-155 chain id escrow approvals are bound to'),
  tokens: z.array(
    z.object({
      symbol: z.string(),
      decimals: z.number().int().describe('Amounts are integers in base units: 10^decimals per whole token'),
      address: z
        .string()
        .nullable()
        .describe(
          "The token contract (Ethereum) or mint (Solana); null for the chain's own coin (ETH, BTC, SOL)",
        ),
    }),
  ),
  confirmations: z
    .union([z.number().int(), z.literal('finalized')])
    .describe('Blocks (slots on Solana) a deposit needs on top of it, or `finalized` (the chain’s finality)'),
  escrow_factory: z
    .string()
    .optional()
    .describe('Ethereum: the factory whose CREATE2 addresses are the deposit addresses'),
  fee_address: z.string().describe('Receives the 0.01% fee of each leg in the payout transaction'),
  explorer_url: z.string().nullable().describe('A block explorer; null on the local devnet'),
  rpc_url: z
    .string()
    .optional()
    .describe(
      'Present only for the local devnet, and only to requests from the server’s own machine; ' +
        'the local Bitcoin node’s URL carries its credentials',
    ),
});

/** The devnet's RPC address is a dev tool on this machine: shown to local requests only (like POST /dev/fund). */
function chainView(chain: ChainInfo, local: boolean): z.infer<typeof chainSchema> {
  return {
    chain: chain.chain,
    ...(chain.bitcoin ? { network: chain.bitcoin.network } : {}),
    ...(chain.solana ? { network: chain.solana.network } : {}),
    ...(chain.chainId === undefined ? {} : { chain_id: chain.chainId }),
    tokens: chain.tokens,
    confirmations: chain.confirmations,
    ...(chain.escrowFactory === undefined ? {} : { escrow_factory: chain.escrowFactory }),
    fee_address: chain.feeAddress,
    explorer_url: chain.explorerUrl,
    ...(chain.devnet && local ? { rpc_url: devnetRpcUrl(chain) } : {}),
  };
}

/** The local node's URL, with the credentials its JSON-RPC needs (the Bitcoin node's are generated at each start). */
function devnetRpcUrl(chain: ChainInfo): string {
  if (!chain.bitcoin?.rpcUser || !chain.bitcoin.rpcPassword) return chain.rpcUrl;
  const url = new URL(chain.rpcUrl);
  url.username = chain.bitcoin.rpcUser;
  url.password = chain.bitcoin.rpcPassword;
  return url.toString();
}

/** `GET /api/v1/chains` (public): the chains escrows run on, their tokens and contracts. */
export const chainRoutes: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/chains',
    {
      config: { access: 'public' },
      schema: {
        tags: ['Escrow'],
        summary:
          'The chains escrows run on (Ethereum, Bitcoin, Solana), with their tokens, confirmations, escrow ' +
          'factory (Ethereum), network (Bitcoin, Solana) and fee address',
        response: { 200: z.object({ data: z.array(chainSchema) }) },
      },
    },
    async (request) => {
      const local = isLocalRequest(request);
      return { data: app.chains.chains.map((chain) => chainView(chain, local)) };
    },
  );
};
