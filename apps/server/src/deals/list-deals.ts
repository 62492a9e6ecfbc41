import { type Db, oncePerDatabase, prepareSelect, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, desc, eq, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type DealView, presentDeal, selectDealViews } from './deal-view.js';

export interface ListDealsQuery {
  limit: number;
  /** A deal id from the previous page: the page starts after it. */
  starting_after?: string | undefined;
  status?: schema.DealStatus | undefined;
}

/** The caller's deals as buyer or seller, newest first, a page at a time. */
export async function listDeals(
  db: Db,
  userId: string,
  query: ListDealsQuery,
): Promise<{ data: DealView[]; has_more: boolean }> {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(schema.deals.status, query.status));
  if (query.starting_after) {
    const mine = or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId));
    const [cursor] = await db
      .select({ createdAt: schema.deals.createdAt, id: schema.deals.id })
      .from(schema.deals)
      .where(and(eq(schema.deals.id, query.starting_after), mine));
    if (!cursor) {
      throw new AppError('VALIDATION_FAILED', 'starting_after is not one of your deals', {
        fields: { starting_after: 'unknown deal' },
      });
    }
    // Row comparison keeps the order total when two deals share a creation time.
    conditions.push(
      sql`(${schema.deals.createdAt}, ${schema.deals.id}) < (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id}::uuid)`,
    );
  }
  const rows =
    conditions.length === 0
      ? await firstPageQuery(db).execute({ userId, limit: query.limit + 1 })
      : await selectDealViews(db, onPage(userId, query.limit + 1, and(...conditions)))
          .orderBy(desc(schema.deals.createdAt), desc(schema.deals.id))
          .limit(query.limit + 1);
  return {
    data: rows.slice(0, query.limit).map((row) => presentDeal(row, userId)),
    has_more: rows.length > query.limit,
  };
}

/**
 * The deals of one page: the newest `limit` of the user's deals as buyer and as seller, each read in
 * order from its own index and cut there, then merged by the outer query's order and limit. A plain
 * `buyer_id = $1 or seller_id = $1` reads and sorts every deal the user ever had on each request,
 * which the soak bench showed as a list growing slower with every deal created. `nulls last` is
 * the indexes' own order (`deals_buyer_created_idx`, `deals_seller_created_idx`): without it a plain
 * `desc` (nulls first) cannot be read from them, even though neither column is ever null.
 */
function onPage(userId: string | Placeholder, limit: number | Placeholder, conditions: SQL | undefined): SQL {
  const { deals } = schema;
  const also = conditions ? sql` and ${conditions}` : sql``;
  const newest = (party: typeof deals.buyerId | typeof deals.sellerId) =>
    sql`(select ${deals.id} from ${deals} where ${party} = ${userId}${also} order by ${deals.createdAt} desc nulls last, ${deals.id} desc nulls last limit ${limit})`;
  return sql`${deals.id} in (${newest(deals.buyerId)} union all ${newest(deals.sellerId)})`;
}

/** The unfiltered first page is by far the most common list; its statement is prepared once per database. */
const firstPageQuery = oncePerDatabase((db) => {
  const limit = sql.placeholder('limit');
  return prepareSelect(
    db,
    'list_deals_first_page',
    selectDealViews(db, onPage(sql.placeholder('userId'), limit, undefined))
      .orderBy(desc(schema.deals.createdAt), desc(schema.deals.id))
      .limit(limit),
  );
});
