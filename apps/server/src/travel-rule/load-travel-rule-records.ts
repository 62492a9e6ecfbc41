import { schema } from '@covenant/db';
import type { DealParty, TravelRuleRecords } from '@covenant/domain';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { loadDealCis } from '../cis/load-deal-cis.js';
import type { TravelRuleDeps } from './travel-rule-deps.js';

/**
 * Each party's records for the Travel Rule: its latest KYC record compliance approved, and the CIS
 * it attached to the deal. Records approved before the form asked the town, the place of birth or
 * the registration authority hold none, and the Travel Rule sends what there is.
 */
export async function loadTravelRuleRecords(
  deps: Pick<TravelRuleDeps, 'db' | 'fileStore'>,
  deal: { id: string; buyerId: string; sellerId: string },
): Promise<Record<DealParty, TravelRuleRecords>> {
  const [approved, cis] = await Promise.all([
    deps.db
      .select()
      .from(schema.kycSubmissions)
      .where(
        and(
          inArray(schema.kycSubmissions.userId, [deal.buyerId, deal.sellerId]),
          eq(schema.kycSubmissions.status, 'approved'),
        ),
      )
      .orderBy(desc(schema.kycSubmissions.submittedAt)),
    loadDealCis(deps, deal.id),
  ]);
  const recordsOf = (party: DealParty, userId: string): TravelRuleRecords => {
    const kyc = approved.find((row) => row.userId === userId);
    const sheet = cis[party]?.cis;
    return {
      kyc: kyc
        ? {
            subjectType: kyc.subjectType,
            legalName: kyc.legalName,
            country: kyc.country,
            address: kyc.address,
            townName: kyc.townName,
            dateOfBirth: kyc.dateOfBirth,
            placeOfBirthCity: kyc.placeOfBirthCity,
            placeOfBirthCountry: kyc.placeOfBirthCountry,
            registrationNumber: kyc.registrationNumber,
            registrationAuthority: kyc.registrationAuthority,
          }
        : null,
      cis: sheet
        ? { legal_name: sheet.legal_name, entity_type: sheet.entity_type, jurisdiction: sheet.jurisdiction }
        : null,
    };
  };
  return { buyer: recordsOf('buyer', deal.buyerId), seller: recordsOf('seller', deal.sellerId) };
}
