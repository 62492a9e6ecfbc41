/** Admins assign staff roles (being built). */
export function StaffUsersRoute() {
  return null;
}
