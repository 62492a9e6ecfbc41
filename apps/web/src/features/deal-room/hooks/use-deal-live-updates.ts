/** Keeps the deal page current while the other side acts (being built). */
export function useDealLiveUpdates(_dealId: string): void {}
