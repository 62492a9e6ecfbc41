// The baseline for api-deals.bench.ts: node:http + pg with no framework, no authentication, no rate
// limit and no validation — the same list query and the same insert as GET and POST /api/v1/deals.
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const userId = process.env.BENCH_USER_ID!;
const sellerId = process.env.BENCH_SELLER_ID!;

const listQuery = `
  select d.*, b.username as buyer_username, b.trading_tier as buyer_tier,
         s.username as seller_username, s.trading_tier as seller_tier
  from deals d
  left join profiles b on b.id = d.buyer_id
  left join profiles s on s.id = d.seller_id
  where d.buyer_id = $1 or d.seller_id = $1
  order by d.created_at desc, d.id desc
  limit 21`;

const server = createServer((request, response) => {
  const answer = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'GET') {
    pool.query(listQuery, [userId]).then(
      ({ rows }) => answer(200, { data: rows.slice(0, 20), has_more: rows.length > 20 }),
      (error: Error) => answer(500, { error: error.message }),
    );
    return;
  }
  let text = '';
  request.on('data', (chunk) => {
    text += chunk;
  });
  request.on('end', async () => {
    const body = JSON.parse(text);
    const client = await pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query(
        `insert into deals (buyer_id, seller_id, asset_chain, asset_symbol, asset_amount, stable_chain,
           stable_symbol, stable_amount) values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
        [
          userId,
          sellerId,
          body.asset_chain,
          body.asset_symbol,
          body.asset_amount,
          body.stable_chain,
          body.stable_symbol,
          body.stable_amount,
        ],
      );
      await client.query(
        `insert into deal_history (deal_id, seq, action, actor_id) values ($1, 1, 'created', $2)`,
        [rows[0].id, userId],
      );
      await client.query('commit');
      answer(201, rows[0]);
    } catch (error) {
      await client.query('rollback');
      answer(500, { error: (error as Error).message });
    } finally {
      client.release();
    }
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
