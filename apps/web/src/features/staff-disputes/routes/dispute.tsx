/** One dispute with everything a mediator needs to decide it (being built). */
export function StaffDisputeRoute() {
  return null;
}
