/** The mediators' dispute queue (being built). */
export function StaffDisputesRoute() {
  return null;
}
