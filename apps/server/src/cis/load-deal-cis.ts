import { schema } from '@covenant/db';
import type { DealCis, DealCisEntry } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { CisDeps } from './cis-deps.js';
import { presentCisSheets } from './present-cis-sheets.js';

/**
 * The CIS exchange of a deal: the sheet each party attached (decrypted) with the counterparty's
 * review of it. No viewer check: callers decide who may see it (the deal's parties, or staff).
 * A deal without any attached sheet, or no deal at all, gives `{buyer: null, seller: null}`.
 */
export async function loadDealCis(deps: Pick<CisDeps, 'db' | 'fileStore'>, dealId: string): Promise<DealCis> {
  const attached = await deps.db
    .select({ link: schema.dealCis, sheet: schema.cisSheets })
    .from(schema.dealCis)
    .innerJoin(schema.cisSheets, eq(schema.cisSheets.id, schema.dealCis.cisId))
    .where(eq(schema.dealCis.dealId, dealId));
  const sheets = await presentCisSheets(
    deps,
    attached.map(({ sheet }) => sheet),
  );
  const exchange: DealCis = { buyer: null, seller: null };
  for (const [index, { link }] of attached.entries()) {
    const entry: DealCisEntry = {
      cis: sheets[index]!,
      status: link.status,
      review_comment: link.reviewComment,
      reviewed_at: link.reviewedAt?.toISOString() ?? null,
      attached_at: link.attachedAt.toISOString(),
    };
    exchange[link.party] = entry;
  }
  return exchange;
}
