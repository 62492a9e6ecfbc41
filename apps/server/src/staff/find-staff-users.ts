import { type Db, schema } from '@covenant/db';
import type { StaffUserList } from '@covenant/domain';
import { asc, ilike, or, sql } from 'drizzle-orm';

/** `%`, `_` and `\` match themselves in the admin's search text. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Users whose e-mail address or username contains `query` (any case), oldest account first, with
 * their staff roles: one page of `limit` from `offset`, and whether more follow.
 */
export async function findStaffUsers(
  db: Db,
  input: { query: string; limit: number; offset: number },
): Promise<StaffUserList> {
  const pattern = likePattern(input.query);
  const rows = await db
    .select({
      id: schema.users.id,
      email: schema.users.email,
      username: schema.profiles.username,
      createdAt: schema.users.createdAt,
      roles: sql<
        schema.UserRole[]
      >`array(select ${schema.userRoles.role} from ${schema.userRoles} where ${schema.userRoles.userId} = ${schema.users.id} order by 1)`,
    })
    .from(schema.users)
    .leftJoin(schema.profiles, sql`${schema.profiles.id} = ${schema.users.id}`)
    .where(
      input.query
        ? or(ilike(schema.users.email, pattern), ilike(schema.profiles.username, pattern))
        : undefined,
    )
    .orderBy(asc(schema.users.createdAt), asc(schema.users.id))
    .limit(input.limit + 1)
    .offset(input.offset);
  return {
    data: rows.slice(0, input.limit).map((row) => ({
      id: row.id,
      email: row.email,
      username: row.username,
      roles: row.roles,
      created_at: row.createdAt.toISOString(),
    })),
    has_more: rows.length > input.limit,
  };
}
