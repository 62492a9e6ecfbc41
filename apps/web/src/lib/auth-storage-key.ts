// The localStorage key of the session, named like supabase-js's own keys (`sb-<project>-auth-token`).
// Its own module, so that pages can look for a stored session without loading the auth client.
export const authStorageKey = 'covenant-auth-token';
