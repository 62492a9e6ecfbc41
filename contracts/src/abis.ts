import { parseAbi } from 'viem';

// Human-readable ABIs so viem infers argument and result types; a test checks that each one lists
// exactly the functions, events and errors of the compiled contract.

const legTermsStruct =
  'struct LegTerms { bytes32 dealId; uint8 leg; address token; uint256 amount; address depositor; address receiver; address feeRecipient; uint64 deadline; address buyer; address seller; address platform; }';

export const covenantEscrowAbi = parseAbi([
  legTermsStruct,
  'constructor()',
  'receive() external payable',
  'function initialize(LegTerms legTerms)',
  'function executePayout(uint8 action, address[] recipients, uint256[] amounts, uint256 payoutNonce, bytes[] signatures)',
  'function refundAfterDeadline()',
  'function sweep()',
  'function returnForeignAsset(bytes32 arrival, address asset, address to, uint256 amount, bytes[] signatures)',
  'function foreignReturnDigest(bytes32 arrival, address asset, address to, uint256 amount) view returns (bytes32)',
  'function FOREIGN_RETURN_TYPEHASH() view returns (bytes32)',
  'function returned(bytes32 arrival) view returns (bool)',
  'function platformFee(uint256 amount) pure returns (uint256)',
  'function payoutDigest(uint8 action, address[] recipients, uint256[] amounts, uint256 payoutNonce) view returns (bytes32)',
  'function PAYOUT_TYPEHASH() view returns (bytes32)',
  'function terms() view returns (LegTerms)',
  'function nonce() view returns (uint256)',
  'function settled() view returns (bool)',
  'function travelPaid() view returns (uint256)',
  'function balance() view returns (uint256)',
  'function factory() view returns (address)',
  'function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)',
  'event EIP712DomainChanged()',
  'event Initialized(bytes32 indexed dealId, uint8 indexed leg, address token, uint256 amount)',
  'event Deposited(address indexed from, uint256 amount)',
  'event Paid(address indexed to, uint256 amount)',
  'event FeePaid(address indexed to, uint256 amount)',
  'event Settled(uint8 indexed action, uint256 nonce)',
  'event TravelPaid(uint256 indexed nonce, address indexed payee, uint256 amount)',
  'event RefundedAfterDeadline(address indexed caller, uint256 amount)',
  'event Swept(address indexed to, uint256 amount)',
  'event ForeignAssetReturned(bytes32 indexed arrival, address indexed asset, address indexed to, uint256 amount)',
  'error CovenantEscrowUnauthorizedInitializer(address caller)',
  'error CovenantEscrowAlreadyInitialized()',
  'error CovenantEscrowInvalidTerms(string reason)',
  'error CovenantEscrowEthNotAccepted()',
  'error CovenantEscrowAlreadySettled()',
  'error CovenantEscrowNotSettled()',
  'error CovenantEscrowInvalidNonce(uint256 expected, uint256 given)',
  'error CovenantEscrowNotEnoughSignatures(uint256 given, uint256 required)',
  'error CovenantEscrowUnknownSigner(address recovered)',
  'error CovenantEscrowDuplicateSigner(address signer)',
  'error CovenantEscrowInvalidPayout()',
  'error CovenantEscrowInsufficientBalance(uint256 required, uint256 available)',
  'error CovenantEscrowDeadlineNotReached(uint64 deadline)',
  'error CovenantEscrowNothingToTransfer()',
  'error CovenantEscrowNotForeignAsset(address asset)',
  'error CovenantEscrowAlreadyReturned(bytes32 arrival)',
  'error ECDSAInvalidSignature()',
  'error ECDSAInvalidSignatureLength(uint256 length)',
  'error ECDSAInvalidSignatureS(bytes32 s)',
  'error FailedCall()',
  'error InsufficientBalance(uint256 balance, uint256 needed)',
  'error InvalidShortString()',
  'error ReentrancyGuardReentrantCall()',
  'error SafeERC20FailedOperation(address token)',
  'error StringTooLong(string str)',
]);

export const covenantEscrowFactoryAbi = parseAbi([
  legTermsStruct,
  'constructor()',
  'function implementation() view returns (address)',
  'function createEscrow(LegTerms terms) returns (address escrow)',
  'function predictEscrow(LegTerms terms) view returns (address)',
  'function escrowSalt(LegTerms terms) pure returns (bytes32)',
  'event EscrowCreated(address indexed escrow, bytes32 indexed dealId, uint8 indexed leg)',
  'error FailedDeployment()',
  'error InsufficientBalance(uint256 balance, uint256 needed)',
]);

/** The ERC-20 surface of the devnet test tokens (USDT-like excepted: its writes return nothing). */
export const testTokenAbi = parseAbi([
  'constructor(string name_, string symbol_, uint8 decimals_)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function mint(address to, uint256 amount)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidSpender(address spender)',
]);

export const testTetherTokenAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function transfer(address to, uint256 value)',
  'function transferFrom(address from, address to, uint256 value)',
  'function approve(address spender, uint256 value)',
  'function mint(address to, uint256 amount)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
]);

export const testBlacklistTokenAbi = parseAbi([
  'constructor()',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() pure returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function mint(address to, uint256 amount)',
  'function setBlacklisted(address account, bool blacklisted)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event BlacklistUpdated(address indexed account, bool blacklisted)',
  'error TestBlacklistTokenBlacklisted(address account)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidSpender(address spender)',
]);

export const testReentrancyAttackerAbi = parseAbi([
  'receive() external payable',
  'function arm(address target, bytes payload)',
  'function reentered() view returns (bool)',
  'function attempted() view returns (bool)',
  'function reentryError() view returns (bytes)',
]);

/** Each compiled contract's typed ABI. */
export const contractAbis = {
  CovenantEscrow: covenantEscrowAbi,
  CovenantEscrowFactory: covenantEscrowFactoryAbi,
  TestToken: testTokenAbi,
  TestTetherToken: testTetherTokenAbi,
  TestBlacklistToken: testBlacklistTokenAbi,
  TestReentrancyAttacker: testReentrancyAttackerAbi,
} as const;

export type ContractName = keyof typeof contractAbis;
