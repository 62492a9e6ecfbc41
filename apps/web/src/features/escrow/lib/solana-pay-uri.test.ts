import { describe, expect, it } from 'vitest';
import { solanaPayUri } from './solana-pay-uri.js';

const recipient = '6YqXjX1oAD9nndCZBp7m68nFgoPFHxB41J42cTtmikUY';
const usdc = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const named = { label: 'Covenant', message: 'Deal 7c1e, asset leg' };

describe('solanaPayUri', () => {
  it('asks for a token by its mint, the amount in whole tokens, label and message URL-encoded', () => {
    expect(solanaPayUri({ recipient, baseUnits: 250_000_000n, decimals: 6, mint: usdc, ...named })).toBe(
      `solana:${recipient}?amount=250&spl-token=${usdc}&label=Covenant&message=Deal%207c1e%2C%20asset%20leg`,
    );
  });

  it('asks for SOL without spl-token, exact to the lamport', () => {
    expect(solanaPayUri({ recipient, baseUnits: 1n, decimals: 9, mint: null, ...named })).toBe(
      `solana:${recipient}?amount=0.000000001&label=Covenant&message=Deal%207c1e%2C%20asset%20leg`,
    );
    expect(solanaPayUri({ recipient, baseUnits: 1_500_000_000n, decimals: 9, mint: null, ...named })).toMatch(
      /\?amount=1\.5&label=/,
    );
  });

  it('leaves the amount out when nothing is left to send', () => {
    expect(solanaPayUri({ recipient, baseUnits: 0n, decimals: 6, mint: usdc, ...named })).toBe(
      `solana:${recipient}?spl-token=${usdc}&label=Covenant&message=Deal%207c1e%2C%20asset%20leg`,
    );
  });
});
