// The documented webhook events (spec §7) with example deliveries, and how to verify a signature.
// A delivery's body is `{id, type, created_at, data}`; `id` is the same when a delivery is retried.
export const webhookEventExamples = [
  {
    event: 'deal.created',
    deliveryId: '4d1c7a2e-9b3f-4e6a-8c5d-2f7b1e9a3c60',
    sentAt: '2026-03-02T14:05:12.000Z',
    when: 'A deal you are a party to has been created.',
    data: {
      deal_id: '0c6d2f4a-8b1e-4c3d-9f7a-2e5b8d1c4a90',
      buyer_id: 'a3e1c9d7-5f2b-4e8a-b6c4-1d9f7e3a2c58',
      seller_id: '5b0f3c8e-2d4a-4e59-9a51-7c3e1f2b8d60',
      asset_chain: 'BTC',
      created_at: '2026-03-02T14:05:11.000Z',
    },
  },
  {
    event: 'escrow.funded',
    deliveryId: '8a2e5c1f-7d3b-4f9e-a6c2-1b8d4e7f0a35',
    sentAt: '2026-03-02T15:31:47.000Z',
    when: 'A leg’s deposit has reached the required confirmations.',
    data: {
      deal_id: '0c6d2f4a-8b1e-4c3d-9f7a-2e5b8d1c4a90',
      escrow_id: 'e7b2a5c1-3d9f-4b6e-8a2c-5f1d7e9b3c04',
      side: 'seller',
      amount: '1000000000',
      transaction_hash: '9f2c4b1e0a7d63c5b8e1f4a2d9c07b3e6a5f1d8c2b4e7a9c0d3f6b1a8e5c2d47',
    },
  },
  {
    event: 'deal.completed',
    deliveryId: 'c3f9b6d2-1e8a-4c7f-9d5b-6a2e0f4c8b17',
    sentAt: '2026-03-02T17:42:31.000Z',
    when: 'Both legs have been paid out.',
    data: {
      deal_id: '0c6d2f4a-8b1e-4c3d-9f7a-2e5b8d1c4a90',
      completed_at: '2026-03-02T17:42:30.000Z',
      settlement_transactions: {
        buyer: 'b41e7c2a9d05f3e86c1a4b7d2e9f05c38a6d1b4e7f2c9a05d3b8e6c1f4a7d290',
        seller: '0x5d8a2c7e1b4f9a3d6c0e8b2f5a7d1c4e9b3f6a0d8c2e5b7f1a4d9c3e6b0f2a8d',
        fee: '0x1f6c3a9e5b2d8f4a7c1e0b6d3f9a5c2e8b4d7f1a6c3e9b0d5f2a8c4e7b1d6f3a',
      },
    },
  },
] as const;

export const verifyJavascript = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (a Buffer or string), before any JSON parsing.
export function verifyCovenantSignature(rawBody, header, secret, toleranceSeconds = 300) {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=')));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1) return false;
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;

  const expected = createHmac('sha256', secret).update(\`\${parts.t}.\${rawBody}\`).digest('hex');
  const received = Buffer.from(parts.v1, 'hex');
  return received.length === 32 && timingSafeEqual(received, Buffer.from(expected, 'hex'));
}`;

export const verifyPython = `import hashlib
import hmac
import time

# raw_body: the request body exactly as received (bytes), before any JSON parsing.
def verify_covenant_signature(raw_body: bytes, header: str, secret: str, tolerance: int = 300) -> bool:
    parts = dict(part.split("=", 1) for part in header.split(","))
    try:
        timestamp = int(parts["t"])
        received = parts["v1"]
    except (KeyError, ValueError):
        return False
    if abs(time.time() - timestamp) > tolerance:
        return False
    signed = f"{parts['t']}.".encode() + raw_body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, received)`;
