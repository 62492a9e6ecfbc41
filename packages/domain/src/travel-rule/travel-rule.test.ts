import { describe, expect, it } from 'vitest';
import {
  assembleTravelRule,
  isLei,
  ivmsAddressLines,
  type TravelRuleInput,
  type TravelRuleKycRecord,
  travelRuleApplies,
  travelRuleGapMessage,
  travelRulePersonOf,
} from './travel-rule.js';

const alice: TravelRuleKycRecord = {
  subjectType: 'individual',
  legalName: 'Alice Smith',
  country: 'US',
  address: '24 Potential Street\nWalnut, CA 91765',
  dateOfBirth: '1990-02-25',
  placeOfBirth: null,
  registrationNumber: null,
};

const abc: TravelRuleKycRecord = {
  subjectType: 'company',
  legalName: 'ABC Limited',
  country: 'CL',
  address: 'Avenida Apoquindo 3000, Santiago',
  dateOfBirth: null,
  placeOfBirth: null,
  registrationNumber: null,
};

const legs: TravelRuleInput['legs'] = [
  { leg: 'asset', chain: 'BTC', symbol: 'BTC', amount: '50000000' },
  { leg: 'stable', chain: 'ETH', symbol: 'USDC', amount: '30000000000' },
];

const accounts: TravelRuleInput['accounts'] = {
  buyer: { payoutAddress: 'bc1q-buyer-payout', refundAddress: '0xBuyerRefund' },
  seller: { payoutAddress: '0xSellerPayout', refundAddress: 'bc1q-seller-refund' },
};

describe('travelRuleApplies', () => {
  it('applies from exactly $1,000 of the stable leg, USDC and USDT at $1', () => {
    // $1,000 = 1000 × 10^6 base units
    expect(travelRuleApplies(1_000_000_000n, 'USDC')).toBe(true);
    // $999.999999: one micro-dollar below
    expect(travelRuleApplies(999_999_999n, 'USDT')).toBe(false);
    expect(travelRuleApplies(30_000_000_000n, 'USDT')).toBe(true);
  });
});

describe('travelRulePersonOf', () => {
  it('makes an individual a naturalPerson: legal name (LEGL), GEOG address lines, country of residence', () => {
    expect(travelRulePersonOf({ kyc: alice, cis: null })).toEqual({
      person: {
        naturalPerson: {
          name: { nameIdentifier: [{ primaryIdentifier: 'Alice Smith', nameIdentifierType: 'LEGL' }] },
          geographicAddress: [
            { addressType: 'GEOG', addressLine: ['24 Potential Street', 'Walnut, CA 91765'], country: 'US' },
          ],
          countryOfResidence: 'US',
        },
      },
      missing: [],
    });
  });

  it('sends date and place of birth only together', () => {
    const person = travelRulePersonOf({ kyc: { ...alice, placeOfBirth: 'London' }, cis: null }).person;
    expect(person).toMatchObject({
      naturalPerson: { dateAndPlaceOfBirth: { dateOfBirth: '1990-02-25', placeOfBirth: 'London' } },
    });
    // A date of birth alone is no IVMS 101 element, so without an address nothing identifies her.
    expect(travelRulePersonOf({ kyc: { ...alice, address: null }, cis: null })).toEqual({
      person: null,
      missing: ['identification'],
    });
    expect(
      travelRulePersonOf({ kyc: { ...alice, address: null, placeOfBirth: 'London' }, cis: null }).person,
    ).toEqual({
      naturalPerson: {
        name: { nameIdentifier: [{ primaryIdentifier: 'Alice Smith', nameIdentifierType: 'LEGL' }] },
        dateAndPlaceOfBirth: { dateOfBirth: '1990-02-25', placeOfBirth: 'London' },
        countryOfResidence: 'US',
      },
    });
  });

  it('makes a company a legalPerson with its LEI as nationalIdentification (LEIX)', () => {
    expect(
      travelRulePersonOf({ kyc: { ...abc, registrationNumber: '506700ge1g29325qx363' }, cis: null }),
    ).toEqual({
      person: {
        legalPerson: {
          name: {
            nameIdentifier: [{ legalPersonName: 'ABC Limited', legalPersonNameIdentifierType: 'LEGL' }],
          },
          geographicAddress: [
            { addressType: 'GEOG', addressLine: ['Avenida Apoquindo 3000, Santiago'], country: 'CL' },
          ],
          nationalIdentification: {
            nationalIdentifier: '506700GE1G29325QX363',
            nationalIdentifierType: 'LEIX',
          },
          countryOfRegistration: 'CL',
        },
      },
      missing: [],
    });
  });

  it('leaves out a registration number that is no LEI (IVMS 101 would need its registration authority)', () => {
    const person = travelRulePersonOf({ kyc: { ...abc, registrationNumber: 'CHE-123.456.789' }, cis: null });
    expect(person.person).not.toHaveProperty('legalPerson.nationalIdentification');
    expect(
      travelRulePersonOf({ kyc: { ...abc, address: null, registrationNumber: 'CHE-1' }, cis: null }),
    ).toEqual({
      person: null,
      missing: ['identification'],
    });
    // An LEI alone identifies the company.
    expect(
      travelRulePersonOf({
        kyc: { ...abc, address: '  ', registrationNumber: '506700GE1G29325QX363' },
        cis: null,
      }).missing,
    ).toEqual([]);
  });

  it('falls back on the CIS for the name, entity type and jurisdiction when there is no KYC record', () => {
    expect(
      travelRulePersonOf({
        kyc: null,
        cis: { legal_name: 'Aurelia Holdings Ltd', entity_type: 'company', jurisdiction: 'CH' },
      }),
    ).toEqual({ person: null, missing: ['identification'] });
    expect(travelRulePersonOf({ kyc: null, cis: null })).toEqual({
      person: null,
      missing: ['name', 'identification'],
    });
  });

  it('prefers the KYC record over the CIS', () => {
    const person = travelRulePersonOf({
      kyc: alice,
      cis: { legal_name: 'Alice Trading', entity_type: 'company', jurisdiction: 'GB' },
    }).person;
    expect(person).toMatchObject({
      naturalPerson: {
        name: { nameIdentifier: [{ primaryIdentifier: 'Alice Smith' }] },
        countryOfResidence: 'US',
      },
    });
  });

  it('names an address that does not fit 7 lines of 70 characters', () => {
    expect(travelRulePersonOf({ kyc: { ...alice, address: 'a\nb\nc\nd\ne\nf\ng\nh' }, cis: null })).toEqual({
      person: null,
      missing: ['address_too_long'],
    });
  });
});

describe('ivmsAddressLines', () => {
  it('keeps written lines and wraps long ones at spaces into lines of at most 70 characters', () => {
    const long = `${'word '.repeat(20)}end`; // 20 × 5 characters + "end" = 103
    const lines = ivmsAddressLines(`Flat 3\n\n  ${long}  `)!;
    expect(lines[0]).toBe('Flat 3');
    expect(lines.slice(1).join(' ')).toBe(long.trim());
    expect(lines.every((line) => line.length <= 70)).toBe(true);
    expect(ivmsAddressLines('x'.repeat(141))).toEqual(['x'.repeat(70), 'x'.repeat(70), 'x']);
    expect(ivmsAddressLines('1\n2\n3\n4\n5\n6\n7')).toHaveLength(7);
    expect(ivmsAddressLines('1\n2\n3\n4\n5\n6\n7\n8')).toBeNull();
  });
});

describe('isLei', () => {
  it('checks the ISO 17442 form and its MOD 97-10 check digits', () => {
    expect(isLei('506700GE1G29325QX363')).toBe(true);
    expect(isLei('506700GE1G29325QX364')).toBe(false);
    expect(isLei('506700GE1G29325QX36')).toBe(false);
  });
});

describe('assembleTravelRule', () => {
  const complete: TravelRuleInput = {
    legs,
    records: { buyer: { kyc: alice, cis: null }, seller: { kyc: abc, cis: null } },
    accounts,
  };

  it('makes the seller the originator of the asset leg and the buyer of the stable leg', () => {
    const assembly = assembleTravelRule(complete);
    if (!assembly.complete) throw new Error('expected complete');
    const [asset, stable] = assembly.transfers;
    expect(asset).toMatchObject({ leg: 'asset', originator: 'seller', beneficiary: 'buyer' });
    expect(asset!.ivms101.originator.originatorPersons).toEqual([
      travelRulePersonOf({ kyc: abc, cis: null }).person,
    ]);
    // The asset leaves from the seller's refund address and reaches the buyer's payout address.
    expect(asset!.ivms101.originator.accountNumber).toEqual(['bc1q-seller-refund']);
    expect(asset!.ivms101.beneficiary.beneficiaryPersons).toEqual([
      travelRulePersonOf({ kyc: alice, cis: null }).person,
    ]);
    expect(asset!.ivms101.beneficiary.accountNumber).toEqual(['bc1q-buyer-payout']);
    expect(stable).toMatchObject({ leg: 'stable', originator: 'buyer', beneficiary: 'seller' });
    expect(stable!.ivms101.originator.accountNumber).toEqual(['0xBuyerRefund']);
    expect(stable!.ivms101.beneficiary.accountNumber).toEqual(['0xSellerPayout']);
    expect(stable!.ivms101.beneficiary.beneficiaryPersons[0]).toHaveProperty('legalPerson');
  });

  it('names every missing element and whose', () => {
    const assembly = assembleTravelRule({
      ...complete,
      records: { buyer: { kyc: null, cis: null }, seller: { kyc: { ...abc, address: null }, cis: null } },
      accounts: { buyer: accounts.buyer, seller: null },
    });
    expect(assembly).toEqual({
      complete: false,
      gaps: [
        { party: 'buyer', elements: ['name', 'identification'] },
        { party: 'seller', elements: ['identification', 'payout_address', 'refund_address'] },
      ],
    });
  });
});

describe('travelRuleGapMessage', () => {
  it('says what is missing and whose, and where to complete it', () => {
    expect(travelRuleGapMessage([{ party: 'seller', elements: ['identification'] }])).toBe(
      'Travel Rule information is missing for this deal of $1,000 or more: the seller’s geographic address, ' +
        'national identifier, or date and place of birth. Complete the KYC record (Verification page) before ' +
        'the escrow opens.',
    );
    expect(
      travelRuleGapMessage([
        { party: 'buyer', elements: ['name', 'identification'] },
        { party: 'seller', elements: ['payout_address'] },
      ]),
    ).toBe(
      'Travel Rule information is missing for this deal of $1,000 or more: the buyer’s legal name; geographic ' +
        'address, national identifier, or date and place of birth, and the seller’s payout address. Complete the ' +
        'KYC record (Verification page) before the escrow opens.',
    );
    expect(travelRuleGapMessage([{ party: 'buyer', elements: ['refund_address'] }])).toBe(
      'Travel Rule information is missing for this deal of $1,000 or more: the buyer’s refund address. Set the ' +
        'addresses on the deal before the escrow opens.',
    );
  });
});
