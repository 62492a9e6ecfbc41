import { payoutTypes } from '@covenant/contracts';
import { hashTypedData } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  type PayoutTypedData,
  payoutTypedDataTypes,
  typedDataFromJson,
  typedDataToJson,
} from './payout-typed-data.js';

const typedData: PayoutTypedData = {
  domain: {
    name: 'CovenantEscrow',
    version: '1',
    chainId: 31337,
    verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  },
  types: payoutTypedDataTypes,
  primaryType: 'Payout',
  message: {
    action: 2,
    recipients: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
    // 2^256 − 1: no precision lost on the way through JSON.
    amounts: [2n ** 256n - 1n],
    nonce: 0n,
  },
};

describe('payout typed data JSON', () => {
  it("uses the escrow contract's Payout types", () => {
    expect(payoutTypedDataTypes).toEqual(payoutTypes);
  });

  it('round-trips through JSON text to the same EIP-712 digest', () => {
    const json = typedDataToJson(typedData);
    expect(json.message).toEqual({
      action: 2,
      recipients: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
      amounts: ['115792089237316195423570985008687907853269984665640564039457584007913129639935'],
      nonce: '0',
    });
    const back = typedDataFromJson(JSON.parse(JSON.stringify(json)));
    expect(back).toEqual(typedData);
    expect(hashTypedData(back)).toBe(hashTypedData(typedData));
  });

  it('accepts every action of the escrow, TRAVEL (3) included', () => {
    for (const action of [0, 1, 2, 3]) {
      const json = typedDataToJson({ ...typedData, message: { ...typedData.message, action } });
      expect(typedDataFromJson(JSON.parse(JSON.stringify(json))).message.action).toBe(action);
    }
  });

  it('refuses JSON that is not exactly a payout', () => {
    const json = typedDataToJson(typedData);
    const tampered = [
      { ...json, primaryType: 'Mail' },
      { ...json, types: { Payout: json.types.Payout.slice(1) } },
      { ...json, domain: { ...json.domain, chainId: '31337' } },
      { ...json, domain: { ...json.domain, verifyingContract: '0x1234' } },
      { ...json, message: { ...json.message, amounts: ['1.5'] } },
      { ...json, message: { ...json.message, amounts: [1] } },
      { ...json, message: { ...json.message, nonce: '-1' } },
      { ...json, message: { ...json.message, recipients: ['nobody'] } },
      { ...json, message: { ...json.message, action: 256 } },
      { ...json, message: { ...json.message, action: 4 } },
      { ...json, message: { ...json.message, action: -1 } },
      { ...json, message: { ...json.message, action: 1.5 } },
      null,
    ];
    for (const value of tampered) {
      expect(() => typedDataFromJson(value)).toThrow(/not a payout's typed data/);
    }
  });
});
