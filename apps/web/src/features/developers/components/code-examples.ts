export type CodeExample = { id: string; title: string; text: string; javascript: string; python: string };

// Amounts travel as decimal strings of base units: 10 BTC = 1,000,000,000 satoshi (8 decimals),
// 950,000 USDC = 950,000,000,000 (6 decimals).
export function codeExamples(baseUrl: string): CodeExample[] {
  return [
    {
      id: 'authenticate',
      title: 'Authenticate',
      text: 'Exchange your e-mail address and password for an access token, and send it as a Bearer token on every other call. Refresh it before it expires with POST /auth/refresh.',
      javascript: `const BASE_URL = '${baseUrl}';

const response = await fetch(\`\${BASE_URL}/auth/login\`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({
    email: process.env.COVENANT_EMAIL,
    password: process.env.COVENANT_PASSWORD,
  }),
});
const body = await response.json();
if (!response.ok) throw new Error(\`\${body.error.code}: \${body.error.message}\`);

const { access_token, refresh_token, expires_in } = body;
const headers = {
  Authorization: \`Bearer \${access_token}\`,
  'Content-Type': 'application/json',
};`,
      python: `import os
import requests

BASE_URL = "${baseUrl}"

response = requests.post(
    f"{BASE_URL}/auth/login",
    json={
        "email": os.environ["COVENANT_EMAIL"],
        "password": os.environ["COVENANT_PASSWORD"],
    },
    timeout=30,
)
body = response.json()
if not response.ok:
    raise RuntimeError(f"{body['error']['code']}: {body['error']['message']}")

access_token = body["access_token"]
session = requests.Session()
session.headers["Authorization"] = f"Bearer {access_token}"`,
    },
    {
      id: 'create-deal',
      title: 'Create a deal',
      text: 'You are the buyer of the asset; counterparty_id is the verified seller. Amounts are strings of base units. An Idempotency-Key makes a retried request create the deal only once.',
      javascript: `const response = await fetch(\`\${BASE_URL}/deals\`, {
  method: 'POST',
  headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
  body: JSON.stringify({
    asset_chain: 'BTC',
    asset_symbol: 'BTC',
    asset_amount: '1000000000', // 10 BTC in satoshi
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '950000000000', // 950,000 USDC (6 decimals)
    counterparty_id: '5b0f3c8e-2d4a-4e59-9a51-7c3e1f2b8d60',
  }),
});
const deal = await response.json();
if (!response.ok) throw new Error(\`\${deal.error.code}: \${deal.error.message}\`);
console.log(deal.id, deal.status); // "draft"`,
      python: `import uuid

response = session.post(
    f"{BASE_URL}/deals",
    headers={"Idempotency-Key": str(uuid.uuid4())},
    json={
        "asset_chain": "BTC",
        "asset_symbol": "BTC",
        "asset_amount": "1000000000",  # 10 BTC in satoshi
        "stable_chain": "ETH",
        "stable_symbol": "USDC",
        "stable_amount": "950000000000",  # 950,000 USDC (6 decimals)
        "counterparty_id": "5b0f3c8e-2d4a-4e59-9a51-7c3e1f2b8d60",
    },
    timeout=30,
)
deal = response.json()
if not response.ok:
    raise RuntimeError(f"{deal['error']['code']}: {deal['error']['message']}")
print(deal["id"], deal["status"])  # draft`,
    },
    {
      id: 'fund-escrow',
      title: 'Fund the escrow',
      text: 'After sending your leg to its deposit address, report the transaction. The deposit counts once the chain confirms it; a second report for a funded leg is answered with ESCROW_ALREADY_FUNDED.',
      javascript: `const response = await fetch(\`\${BASE_URL}/escrow/fund\`, {
  method: 'POST',
  headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
  body: JSON.stringify({
    deal_id: deal.id,
    chain: 'BTC',
    transaction_hash: '9f2c4b1e0a7d63c5b8e1f4a2d9c07b3e6a5f1d8c2b4e7a9c0d3f6b1a8e5c2d47',
    amount: '1000000000',
  }),
});
const funding = await response.json();
if (response.status === 409 && funding.error.code === 'ESCROW_ALREADY_FUNDED') {
  console.log('This leg is already funded.');
} else if (!response.ok) {
  throw new Error(\`\${funding.error.code}: \${funding.error.message}\`);
}`,
      python: `response = session.post(
    f"{BASE_URL}/escrow/fund",
    headers={"Idempotency-Key": str(uuid.uuid4())},
    json={
        "deal_id": deal["id"],
        "chain": "BTC",
        "transaction_hash": "9f2c4b1e0a7d63c5b8e1f4a2d9c07b3e6a5f1d8c2b4e7a9c0d3f6b1a8e5c2d47",
        "amount": "1000000000",
    },
    timeout=30,
)
funding = response.json()
if response.status_code == 409 and funding["error"]["code"] == "ESCROW_ALREADY_FUNDED":
    print("This leg is already funded.")
elif not response.ok:
    raise RuntimeError(f"{funding['error']['code']}: {funding['error']['message']}")`,
    },
  ];
}
