import { createHmac } from 'node:crypto';
import { expect, type Page } from '@playwright/test';

/** The demo staff accounts' TOTP secret (base32), as the server seeds it and prints it at start. */
export const demoStaffTotpSecret = 'COVENANTDEMOTOTPSECRETFORSTAFFAA';

const stepSeconds = 30;

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const character of text.replace(/=+$/, '')) {
    const value = alphabet.indexOf(character);
    if (value < 0) throw new Error(`not base32: ${character}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/** The 6-digit code an authenticator app shows at `atMs` (RFC 6238: HMAC-SHA-1, 30-second steps). */
export function totpCode(secret: string, atMs = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / stepSeconds)));
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/**
 * Answers the staff gate's "Verify it's you" with a code of the demo authenticator. The server takes
 * each 30-second code once, so when an earlier step of the run used this one, it waits for the next.
 */
export async function passStaffGate(page: Page): Promise<void> {
  const heading = page.getByRole('heading', { name: "Verify it's you" });
  await expect(heading).toBeVisible();
  for (let attempt = 1; ; attempt += 1) {
    await page.getByLabel('Authentication code').fill(totpCode(demoStaffTotpSecret));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    const passed = await expect(heading)
      .toBeHidden({ timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (passed) return;
    if (attempt === 3) throw new Error('the staff gate refused three codes of the demo authenticator');
    await page.waitForTimeout(stepSeconds * 1000 - (Date.now() % (stepSeconds * 1000)) + 1_000);
  }
}
