import { describe, expect, it } from 'vitest';
import { emptyJurisdictionDenyList, parseJurisdictionDenyList } from './jurisdiction-deny-list.js';
import {
  compactUsd,
  type MatchCandidate,
  type MatchingProfile,
  matchWeights,
  rankCounterparties,
} from './rank-counterparties.js';

const denyList = (text: string) => {
  const parsed = parseJurisdictionDenyList(text);
  if (!parsed.ok) throw new Error(`invalid deny list ${text}`);
  return parsed.list;
};

/**
 * The caller trades ETH and BTC against USDC and USDT on Ethereum — four pairs, in this order:
 * ETH/USDC, ETH/USDT, BTC/USDC, BTC/USDT — for $50,000 to $250,000, settling within 24 hours, with
 * an Institutional limit of $1,000,000. Their own tradable range counts 250,000 − 50,000 + 1 =
 * 200,001 whole dollars.
 */
const caller: MatchingProfile = {
  sheet: {
    jurisdiction: 'CH',
    assets: ['BTC', 'ETH', 'USDC', 'USDT'],
    preferred_chains: ['BTC', 'ETH'],
    size_min_usd: 50_000,
    size_max_usd: 250_000,
    settlement_window_hours: 24,
  },
  tierLimitUsd: 1_000_000n,
  completedDeals: 0,
  disputesAgainst: 0,
};

let nextId = 0;
function candidate(
  username: string | null,
  overrides: Omit<Partial<MatchCandidate>, 'sheet'> & { sheet?: Partial<MatchCandidate['sheet']> } = {},
): MatchCandidate {
  nextId += 1;
  return {
    id: `00000000-0000-4000-8000-${String(nextId).padStart(12, '0')}`,
    username,
    tierLimitUsd: 1_000_000n,
    completedDeals: 0,
    disputesAgainst: 0,
    ...overrides,
    sheet: { ...caller.sheet, ...overrides.sheet },
  };
}

describe('rankCounterparties', () => {
  it('weighs the factors to a score of at most 100, reached by a perfect match', () => {
    expect(Object.values(matchWeights).reduce((sum, weight) => sum + weight, 0)).toBe(100);
    const [twin] = rankCounterparties(
      caller,
      [candidate('twin', { completedDeals: 10 })],
      emptyJurisdictionDenyList,
    );
    expect(twin).toMatchObject({
      score: 100,
      points: { pairs: 35, sizes: 30, settlement: 15, experience: 10, disputes: 10 },
    });
  });

  it('ranks the fixture in the written order, with the reasons of each', () => {
    // alpha: BTC/USDC only (1 of 4 pairs: ⌊35·1/4⌋ = 8); same sizes (30); same window (15);
    // 12 completed deals (capped at 10); no disputes (10). 8 + 30 + 15 + 10 + 10 = 73.
    const alpha = candidate('alpha', {
      sheet: { jurisdiction: 'DE', assets: ['BTC', 'USDC'] },
      completedDeals: 12,
    });
    // bravo: all four pairs (35); $100k–$1M with an Enhanced limit of $100,000: the sizes meet at
    // $100k only (⌊30·1/200,001⌋ = 0); 48 h (⌊15·24/48⌋ = 7); 3 deals (3); 1 dispute in 4 (⌊10·3/4⌋ = 7).
    // 35 + 0 + 7 + 3 + 7 = 52.
    const bravo = candidate('bravo', {
      sheet: {
        jurisdiction: 'US',
        size_min_usd: 100_000,
        size_max_usd: 1_000_000,
        settlement_window_hours: 48,
      },
      tierLimitUsd: 100_000n,
      completedDeals: 3,
      disputesAgainst: 1,
    });
    // charlie: ETH/USDT in common (8); $150k–$500k, limit $500,000: overlap $150k–$250k,
    // ⌊30·100,001/200,001⌋ = 15; 12 h (⌊15·12/24⌋ = 7); no deals yet (0); a clean record (10). 40.
    const charlie = candidate('charlie', {
      sheet: {
        jurisdiction: 'GB',
        assets: ['ETH', 'WETH', 'USDT'],
        preferred_chains: ['ETH', 'SOL'],
        size_min_usd: 150_000,
        size_max_usd: 500_000,
        settlement_window_hours: 12,
      },
      tierLimitUsd: 500_000n,
    });
    // india: all four pairs (35); $300k–$900k does not overlap (0); same window (15); no deals (0);
    // two disputes and no completed deal (⌊10·0/2⌋ = 0). 50.
    const india = candidate('india', {
      sheet: { jurisdiction: 'SG', size_min_usd: 300_000, size_max_usd: 900_000 },
      disputesAgainst: 2,
    });
    // Dropped: a denied country, a denied pair of countries, no pair in common, a limit below the
    // smallest size both would trade ($50,000 > $10,000), an Institutional tier without a limit.
    const delta = candidate('delta', { sheet: { jurisdiction: 'KP' }, completedDeals: 50 });
    const hotel = candidate('hotel', { sheet: { jurisdiction: 'RU' }, completedDeals: 50 });
    const echo = candidate('echo', { sheet: { assets: ['SOL', 'USDC'], preferred_chains: ['SOL'] } });
    const foxtrot = candidate('foxtrot', { tierLimitUsd: 10_000n });
    const golf = candidate('golf', { tierLimitUsd: null });

    const ranked = rankCounterparties(
      caller,
      [charlie, delta, echo, india, foxtrot, golf, bravo, hotel, alpha],
      denyList('KP,CH-RU'),
    );

    expect(ranked.map(({ id, score }) => [id, score])).toEqual([
      [alpha.id, 73],
      [bravo.id, 52],
      [india.id, 50],
      [charlie.id, 40],
    ]);
    expect(ranked[0]!.reasons).toEqual([
      'both trade BTC against USDC on Ethereum',
      'sizes overlap $50k–$250k',
      'settles within 24 h',
      '12 completed deals on Covenant',
      'no disputes raised against them',
    ]);
    expect(ranked[1]).toMatchObject({
      points: { pairs: 35, sizes: 0, settlement: 7, experience: 3, disputes: 7 },
      reasons: [
        'both trade ETH against USDC on Ethereum, ETH against USDT on Ethereum and 2 more pairs',
        'sizes meet at $100k within the tier limits',
        'settles within 48 h',
        '3 completed deals on Covenant',
        '1 dispute raised against them',
      ],
    });
    expect(ranked[2]).toMatchObject({
      points: { pairs: 35, sizes: 0, settlement: 15, experience: 0, disputes: 0 },
      reasons: [
        'both trade ETH against USDC on Ethereum, ETH against USDT on Ethereum and 2 more pairs',
        'sizes do not overlap',
        'settles within 24 h',
        'no completed deals on Covenant yet',
        '2 disputes raised against them',
      ],
    });
    expect(ranked[3]).toMatchObject({
      points: { pairs: 8, sizes: 15, settlement: 7, experience: 0, disputes: 10 },
      reasons: [
        'both trade ETH against USDT on Ethereum',
        'sizes overlap $150k–$250k',
        'settles within 24 h',
        'no completed deals on Covenant yet',
        'no disputes raised against them',
      ],
    });
  });

  it('say "and" for two pairs and "1 more pair" for three', () => {
    // A caller with three pairs: ETH, WETH and BTC against USDC on Ethereum.
    const threePairs = {
      ...caller,
      sheet: { ...caller.sheet, assets: ['ETH' as const, 'WETH' as const, 'BTC' as const, 'USDC' as const] },
    };
    const two = candidate('two', { sheet: { assets: ['ETH', 'BTC', 'USDC'] } });
    const three = candidate('three', { sheet: threePairs.sheet });
    const ranked = rankCounterparties(threePairs, [two, three], emptyJurisdictionDenyList);
    // 3 of 3 pairs: 35, ahead of 2 of 3: ⌊35·2/3⌋ = 23.
    expect(ranked.map((suggestion) => [suggestion.points.pairs, suggestion.reasons[0]])).toEqual([
      [35, 'both trade ETH against USDC on Ethereum, WETH against USDC on Ethereum and 1 more pair'],
      [23, 'both trade ETH against USDC on Ethereum and BTC against USDC on Ethereum'],
    ]);
  });

  it('limit the overlap by the caller’s own tier as well as the candidate’s', () => {
    // An Enhanced caller ($100,000): their tradable range is $50k–$100k (50,001 dollars). A candidate
    // at $60k–$250k overlaps $60k–$100k: ⌊30·40,001/50,001⌋ = 24.
    const enhancedCaller = { ...caller, tierLimitUsd: 100_000n };
    const [match] = rankCounterparties(
      enhancedCaller,
      [candidate('kilo', { sheet: { size_min_usd: 60_000 } })],
      emptyJurisdictionDenyList,
    );
    expect(match!.points.sizes).toBe(24);
    expect(match!.reasons[1]).toBe('sizes overlap $60k–$100k within the tier limits');
    // A caller who cannot trade (no limit known) gets no suggestions at all.
    expect(
      rankCounterparties({ ...caller, tierLimitUsd: null }, [candidate('lima')], emptyJurisdictionDenyList),
    ).toEqual([]);
  });

  it('count a one-amount range that is met in full', () => {
    const pointCaller = { ...caller, sheet: { ...caller.sheet, size_min_usd: 80_000, size_max_usd: 80_000 } };
    const [match] = rankCounterparties(pointCaller, [candidate('mike')], emptyJurisdictionDenyList);
    expect(match!.points.sizes).toBe(30);
    expect(match!.reasons[1]).toBe('sizes meet at $80k');
  });

  it('breaks equal scores by pairs in common before completed deals', () => {
    // papa: 2 pairs (17) + no deals (0) + clean (10); quebec: 1 pair (8) + 9 deals (9) + clean (10).
    // Both 17 + 30 + 15 + 0 + 10 = 8 + 30 + 15 + 9 + 10 = 72.
    const quebec = candidate('quebec', { sheet: { assets: ['BTC', 'USDC'] }, completedDeals: 9 });
    const papa = candidate('papa', { sheet: { assets: ['ETH', 'USDC', 'USDT'] } });
    const ranked = rankCounterparties(caller, [quebec, papa], emptyJurisdictionDenyList);
    expect(ranked.map(({ id, score }) => [id, score])).toEqual([
      [papa.id, 72],
      [quebec.id, 72],
    ]);
  });

  it('then by completed deals before disputes', () => {
    // romeo: 2 deals, none disputed: 2 + 10 = 12; sierra: 4 deals, 1 dispute: 4 + ⌊10·4/5⌋ = 12.
    const romeo = candidate('romeo', { completedDeals: 2 });
    const sierra = candidate('sierra', { completedDeals: 4, disputesAgainst: 1 });
    const ranked = rankCounterparties(caller, [romeo, sierra], emptyJurisdictionDenyList);
    expect(ranked.map(({ id, score }) => [id, score])).toEqual([
      [sierra.id, 92],
      [romeo.id, 92],
    ]);
  });

  it('then by fewer disputes against them', () => {
    // 20 deals each (10): 1 dispute gives ⌊10·20/21⌋ = 9, 2 disputes ⌊10·20/22⌋ = 9.
    const tango = candidate('tango', { completedDeals: 20, disputesAgainst: 2 });
    const uniform = candidate('uniform', { completedDeals: 20, disputesAgainst: 1 });
    const ranked = rankCounterparties(caller, [tango, uniform], emptyJurisdictionDenyList);
    expect(ranked.map(({ id, score }) => [id, score])).toEqual([
      [uniform.id, 99],
      [tango.id, 99],
    ]);
  });

  it('then by username in any case, those without one last, then by id', () => {
    const bob = candidate('Bob');
    const alice = candidate('alice');
    const nameless2 = candidate(null);
    const nameless1 = { ...candidate(null), id: '00000000-0000-4000-8000-000000000000' };
    const ranked = rankCounterparties(caller, [nameless2, bob, nameless1, alice], emptyJurisdictionDenyList);
    expect(ranked.map(({ id }) => id)).toEqual([alice.id, bob.id, nameless1.id, nameless2.id]);
  });
});

describe('compactUsd', () => {
  it('writes amounts short, to one decimal', () => {
    expect([0n, 999n, 50_000n, 12_345n, 1_500_000n, 1_000_000_000n].map(compactUsd)).toEqual([
      '$0',
      '$999',
      '$50k',
      '$12.3k',
      '$1.5M',
      '$1B',
    ]);
  });
});
