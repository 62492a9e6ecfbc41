import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { getProfile, type ProfileView } from './get-profile.js';

export interface ProfileSettings {
  /** true: not suggested to other traders as a counterparty (GET /api/v1/partners/matches). */
  matching_opt_out?: boolean | undefined;
}

/** The caller changes their own profile settings; answers the profile as `GET /user/profile` shows it. */
export async function updateProfileSettings(
  db: Db,
  caller: { userId: string; roles: schema.UserRole[] },
  settings: ProfileSettings,
): Promise<ProfileView> {
  if (settings.matching_opt_out !== undefined) {
    const updated = await db
      .update(schema.profiles)
      .set({ matchingOptOut: settings.matching_opt_out })
      .where(eq(schema.profiles.id, caller.userId))
      .returning({ id: schema.profiles.id });
    if (updated.length === 0) throw new AppError('NOT_FOUND', 'Profile not found');
  }
  return getProfile(db, caller);
}
