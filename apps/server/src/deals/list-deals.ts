import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm';
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
  const mine = or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId));
  const conditions: Array<SQL | undefined> = [mine];
  if (query.status) conditions.push(eq(schema.deals.status, query.status));
  if (query.starting_after) {
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
    conditions.length === 1
      ? await firstPageQuery(db).execute({ userId, limit: query.limit + 1 })
      : await selectDealViews(db, and(...conditions))
          .orderBy(desc(schema.deals.createdAt), desc(schema.deals.id))
          .limit(query.limit + 1);
  return {
    data: rows.slice(0, query.limit).map((row) => presentDeal(row, userId)),
    has_more: rows.length > query.limit,
  };
}

function prepareFirstPage(db: Db) {
  const userId = sql.placeholder('userId');
  return selectDealViews(db, or(eq(schema.deals.buyerId, userId), eq(schema.deals.sellerId, userId)))
    .orderBy(desc(schema.deals.createdAt), desc(schema.deals.id))
    .limit(sql.placeholder('limit'))
    .prepare('list_deals_first_page');
}

/** The unfiltered first page is by far the most common list; its statement is prepared once per database. */
const firstPageQueries = new WeakMap<Db, ReturnType<typeof prepareFirstPage>>();

function firstPageQuery(db: Db): ReturnType<typeof prepareFirstPage> {
  let query = firstPageQueries.get(db);
  if (!query) {
    query = prepareFirstPage(db);
    firstPageQueries.set(db, query);
  }
  return query;
}
