import type { Chain, StableChain, StableSymbol, TokenSymbol } from '@covenant/domain';
import { emptyMeetingDraft, type MeetingDraft } from './meeting-draft.js';

// The create-trade form as typed: amounts stay text until they are parsed exactly on submit.
export type TradeDraft = {
  assetChain: Chain;
  assetSymbol: TokenSymbol;
  assetAmount: string;
  stableChain: StableChain;
  stableSymbol: StableSymbol;
  stableAmount: string;
  partnerId: string;
  meetingRequired: boolean;
  meeting: MeetingDraft;
};

// Ethereum first: it is the chain whose escrow runs today (the form offers only listed chains).
export const emptyTradeDraft: TradeDraft = {
  assetChain: 'ETH',
  assetSymbol: 'ETH',
  assetAmount: '',
  stableChain: 'ETH',
  stableSymbol: 'USDC',
  stableAmount: '',
  partnerId: '',
  meetingRequired: false,
  meeting: emptyMeetingDraft,
};
