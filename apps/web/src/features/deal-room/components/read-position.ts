/** A position as the check-in sends it. */
export type SharedPosition = { latitude: number; longitude: number; accuracy: number };

/**
 * The phone's position once, for the check-in, or null when it is refused, unavailable or slow:
 * the check-in goes ahead without it (the server flags it for the mediators) rather than failing.
 */
export function readPosition(
  geolocation: Geolocation | undefined = globalThis.navigator?.geolocation,
  timeoutMs = 10_000,
): Promise<SharedPosition | null> {
  if (!geolocation) return Promise.resolve(null);
  return new Promise((resolve) => {
    geolocation.getCurrentPosition(
      ({ coords }) =>
        resolve({ latitude: coords.latitude, longitude: coords.longitude, accuracy: coords.accuracy }),
      () => resolve(null),
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 60_000 },
    );
  });
}
