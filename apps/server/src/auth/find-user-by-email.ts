import { type Db, schema } from '@covenant/db';
import { sql } from 'drizzle-orm';
import type { UserRow } from './load-user-account.js';

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(schema.users)
    .where(sql`lower(${schema.users.email}) = lower(${email})`);
  return user;
}
