import type { TravelRuleDocument } from '@covenant/domain';
import { travelRuleDocumentSchema } from '@covenant/domain';
import { openSealedText, sealText } from '../files/seal-text.js';

/** The sealed document opens only on its own deal's row. */
const contextOf = (dealId: string) => `travel-rule:${dealId}`;

export function sealTravelRuleDocument(masterKey: Buffer, document: TravelRuleDocument): string {
  return sealText(masterKey, JSON.stringify(document), contextOf(document.deal_id));
}

export function openTravelRuleDocument(
  masterKey: Buffer,
  dealId: string,
  sealed: string,
): TravelRuleDocument {
  return travelRuleDocumentSchema.parse(JSON.parse(openSealedText(masterKey, sealed, contextOf(dealId))));
}
