import type { FailedTransactionMetadata } from 'litesvm';

/** A TransactionError as solana's RPC serializes it: a variant name, or `{ Variant: payload }`. */
export type TransactionErrorJson = string | Record<string, unknown>;

/** litesvm's `TransactionErrorFieldless` (a const enum its typings do not let isolated modules read), in order. */
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const;

/** litesvm's `InstructionErrorFieldless`, in order. */
const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const;

/** Human text of the errors a client most often meets, worded as solana's validator words them. */
const TRANSACTION_ERROR_TEXT: Record<string, string> = {
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  SignatureFailure: 'Transaction did not pass signature verification',
};

/** litesvm's error object of a failed transaction as the RPC's JSON. */
export function transactionErrorJson(failed: FailedTransactionMetadata): TransactionErrorJson {
  const error: unknown = failed.err();
  if (typeof error === 'number') return TRANSACTION_ERRORS[error] ?? `TransactionError${error}`;
  const name = (error as object).constructor.name;
  const fields = error as { index?: number; accountIndex?: number; err?: () => unknown };
  if (name === 'TransactionErrorInstructionError' && fields.err) {
    return { InstructionError: [fields.index, instructionErrorJson(fields.err())] };
  }
  if (name === 'TransactionErrorDuplicateInstruction') return { DuplicateInstruction: fields.index };
  if (name === 'TransactionErrorInsufficientFundsForRent') {
    return { InsufficientFundsForRent: { account_index: fields.accountIndex } };
  }
  if (name === 'TransactionErrorProgramExecutionTemporarilyRestricted') {
    return { ProgramExecutionTemporarilyRestricted: { account_index: fields.accountIndex } };
  }
  return String(error);
}

function instructionErrorJson(error: unknown): unknown {
  if (typeof error === 'number') return INSTRUCTION_ERRORS[error] ?? `InstructionError${error}`;
  const fields = error as { code?: number; msg?: string };
  if (typeof fields.code === 'number') return { Custom: fields.code };
  if (typeof fields.msg === 'string') return { BorshIoError: fields.msg };
  return String(error);
}

/** The message of a -32002 preflight failure, e.g. "Error processing Instruction 0: custom program error: 0x1". */
export function transactionErrorText(error: TransactionErrorJson): string {
  if (typeof error === 'string') return TRANSACTION_ERROR_TEXT[error] ?? error;
  const instruction = error.InstructionError as [number, unknown] | undefined;
  if (instruction) {
    const [index, cause] = instruction;
    const custom = (cause as { Custom?: number } | null)?.Custom;
    const text =
      typeof custom === 'number' ? `custom program error: 0x${custom.toString(16)}` : JSON.stringify(cause);
    return `Error processing Instruction ${index}: ${text}`;
  }
  return JSON.stringify(error);
}
