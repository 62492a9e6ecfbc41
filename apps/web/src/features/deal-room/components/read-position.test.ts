import { describe, expect, it } from 'vitest';
import { readPosition } from './read-position.js';

function geolocation(answer: (ok: PositionCallback, refused: PositionErrorCallback) => void): Geolocation {
  return { getCurrentPosition: answer } as unknown as Geolocation;
}

describe('readPosition', () => {
  it('answers the position the phone shares', async () => {
    const shared = geolocation((ok) =>
      ok({ coords: { latitude: 47.37, longitude: 8.54, accuracy: 9 }, timestamp: 0 } as GeolocationPosition),
    );
    await expect(readPosition(shared)).resolves.toEqual({ latitude: 47.37, longitude: 8.54, accuracy: 9 });
  });

  it('answers null when refused, or when the browser has no geolocation, so check-in goes ahead without it', async () => {
    const refused = geolocation((_ok, refuse) =>
      refuse({ code: 1, message: 'denied' } as GeolocationPositionError),
    );
    await expect(readPosition(refused)).resolves.toBeNull();
    await expect(readPosition(undefined)).resolves.toBeNull();
  });
});
