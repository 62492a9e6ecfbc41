import { describe, expect, it } from 'vitest';
import type { ConfirmationPolicy, TxStatus } from './chain-adapter.js';
import { pendingEntryUpdate } from './pending-entries.js';

const policy: ConfirmationPolicy = { finality: 'depth', confirmations: 2 };
const inBlock = (blockRef: string, confirmations: number, final = false): TxStatus => ({
  state: 'included',
  blockRef,
  height: 101n,
  confirmations,
  final,
});

describe('pendingEntryUpdate', () => {
  describe('an entry seen in the mempool (no block yet)', () => {
    const seen = { blockRef: null, confirmations: 0 };

    it('stays pending while its transaction waits in the mempool', () => {
      expect(pendingEntryUpdate(seen, { state: 'mempool' }, policy)).toEqual({ kind: 'keep' });
    });

    it('takes its block when it is included, pending until deep enough', () => {
      expect(pendingEntryUpdate(seen, inBlock('b1', 1), policy)).toEqual({
        kind: 'pending',
        blockRef: 'b1',
        height: 101n,
        confirmations: 1,
      });
    });

    it('is confirmed at once when first read deep enough', () => {
      expect(pendingEntryUpdate(seen, inBlock('b1', 2), policy)).toMatchObject({
        kind: 'confirmed',
        blockRef: 'b1',
      });
    });

    it('stops counting when the node no longer knows the transaction (dropped, double-spent)', () => {
      expect(pendingEntryUpdate(seen, { state: 'unknown' }, policy)).toEqual({ kind: 'reorged' });
    });
  });

  describe('an entry that had a block', () => {
    const mined = { blockRef: 'b1', confirmations: 1 };

    it('is reorged when its transaction went back to the mempool, as before', () => {
      expect(pendingEntryUpdate(mined, { state: 'mempool' }, policy)).toEqual({ kind: 'reorged' });
    });

    it('is reorged when the node no longer knows it or it is in another block', () => {
      expect(pendingEntryUpdate(mined, { state: 'unknown' }, policy)).toEqual({ kind: 'reorged' });
      expect(pendingEntryUpdate(mined, inBlock('b2', 1), policy)).toEqual({ kind: 'reorged' });
    });

    it('is kept while its depth has not changed, updated when it has, confirmed when deep enough', () => {
      expect(pendingEntryUpdate(mined, inBlock('b1', 1), policy)).toEqual({ kind: 'keep' });
      expect(
        pendingEntryUpdate({ blockRef: 'b1', confirmations: 0 }, inBlock('b1', 1), policy),
      ).toMatchObject({
        kind: 'pending',
        confirmations: 1,
      });
      expect(pendingEntryUpdate(mined, inBlock('b1', 2), policy)).toMatchObject({ kind: 'confirmed' });
    });

    it('waits for finality under a finalized policy', () => {
      const finalized: ConfirmationPolicy = { finality: 'finalized', confirmations: 64 };
      expect(pendingEntryUpdate(mined, inBlock('b1', 70), finalized)).toMatchObject({ kind: 'pending' });
      expect(pendingEntryUpdate(mined, inBlock('b1', 70, true), finalized)).toMatchObject({
        kind: 'confirmed',
      });
    });
  });
});
