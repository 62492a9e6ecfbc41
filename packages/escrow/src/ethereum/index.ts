export {
  covenantEscrowAbi,
  covenantEscrowFactoryAbi,
  type ForeignReturn,
  foreignArrivalId,
  foreignReturnTypedData,
} from '@covenant/contracts';
export { buildEthereumPayout } from './build-ethereum-payout.js';
export { contractLegTerms, dealIdBytes32 } from './contract-leg-terms.js';
export { createEthereumEscrowChain } from './create-ethereum-escrow-chain.js';
export type {
  EthereumEscrowChain,
  EthereumEscrowChainOptions,
  EthereumPlatformSigner,
  OutgoingMovement,
  SignedTransaction,
} from './ethereum-escrow-chain.js';
export {
  type PayoutTypedData,
  type PayoutTypedDataJson,
  payoutTypedDataTypes,
  typedDataFromJson,
  typedDataToJson,
} from './payout-typed-data.js';
