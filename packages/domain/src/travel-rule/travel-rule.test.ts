import { describe, expect, it } from 'vitest';
import { ivms101IdentityPayloadSchema } from './ivms101.js';
import {
  assembleTravelRule,
  isLei,
  ivmsAddressLines,
  ivmsPlaceOfBirth,
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
  townName: 'Walnut',
  dateOfBirth: '1990-02-25',
  placeOfBirthCity: 'London',
  placeOfBirthCountry: 'GB',
  registrationNumber: null,
  registrationAuthority: null,
};

/** Alice as approved before the form asked the town and the place of birth. */
const olderAlice: TravelRuleKycRecord = {
  ...alice,
  townName: null,
  placeOfBirthCity: null,
  placeOfBirthCountry: null,
};

const abc: TravelRuleKycRecord = {
  subjectType: 'company',
  legalName: 'ABC Limited',
  country: 'CL',
  address: 'Avenida Apoquindo 3000, Santiago',
  townName: 'Santiago',
  dateOfBirth: null,
  placeOfBirthCity: null,
  placeOfBirthCountry: null,
  registrationNumber: null,
  registrationAuthority: null,
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
  it('makes an individual a naturalPerson: legal name (LEGL), GEOG address with its town, date and place of birth, country of residence', () => {
    expect(travelRulePersonOf({ kyc: alice, cis: null })).toEqual({
      person: {
        naturalPerson: {
          name: { nameIdentifier: [{ primaryIdentifier: 'Alice Smith', nameIdentifierType: 'LEGL' }] },
          geographicAddress: [
            {
              addressType: 'GEOG',
              townName: 'Walnut',
              addressLine: ['24 Potential Street', 'Walnut, CA 91765'],
              country: 'US',
            },
          ],
          dateAndPlaceOfBirth: { dateOfBirth: '1990-02-25', placeOfBirth: 'London, GB' },
          countryOfResidence: 'US',
        },
      },
      missing: [],
    });
  });

  it('sends what a record approved before the town and place of birth were asked holds', () => {
    expect(travelRulePersonOf({ kyc: olderAlice, cis: null })).toEqual({
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
    // A date of birth alone is no IVMS 101 element, so without an address nothing identifies her.
    expect(travelRulePersonOf({ kyc: { ...olderAlice, address: null }, cis: null })).toEqual({
      person: null,
      missing: ['identification'],
    });
    expect(travelRulePersonOf({ kyc: { ...alice, address: null, dateOfBirth: null }, cis: null })).toEqual({
      person: null,
      missing: ['identification'],
    });
    // With both, they identify her even without an address; the town needs the address it belongs to.
    expect(travelRulePersonOf({ kyc: { ...alice, address: null }, cis: null })).toEqual({
      person: {
        naturalPerson: {
          name: { nameIdentifier: [{ primaryIdentifier: 'Alice Smith', nameIdentifierType: 'LEGL' }] },
          dateAndPlaceOfBirth: { dateOfBirth: '1990-02-25', placeOfBirth: 'London, GB' },
          countryOfResidence: 'US',
        },
      },
      missing: [],
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
            {
              addressType: 'GEOG',
              townName: 'Santiago',
              addressLine: ['Avenida Apoquindo 3000, Santiago'],
              country: 'CL',
            },
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

  it('sends a registration number that is no LEI with its registration authority (RAID, constraint C9)', () => {
    expect(
      travelRulePersonOf({
        kyc: {
          ...abc,
          country: 'GB',
          address: '1 Example Street\nLondon EC1A 1AA',
          townName: 'London',
          registrationNumber: '00048839',
          registrationAuthority: 'RA000585',
        },
        cis: null,
      }),
    ).toEqual({
      person: {
        legalPerson: {
          name: {
            nameIdentifier: [{ legalPersonName: 'ABC Limited', legalPersonNameIdentifierType: 'LEGL' }],
          },
          geographicAddress: [
            {
              addressType: 'GEOG',
              townName: 'London',
              addressLine: ['1 Example Street', 'London EC1A 1AA'],
              country: 'GB',
            },
          ],
          nationalIdentification: {
            nationalIdentifier: '00048839',
            nationalIdentifierType: 'RAID',
            registrationAuthority: 'RA000585',
          },
          countryOfRegistration: 'GB',
        },
      },
      missing: [],
    });
    // With its registration authority, the number alone identifies the company.
    expect(
      travelRulePersonOf({
        kyc: {
          ...abc,
          address: null,
          registrationNumber: 'CHE-123.456.789',
          registrationAuthority: 'RA000548',
        },
        cis: null,
      }),
    ).toEqual({
      person: {
        legalPerson: {
          name: {
            nameIdentifier: [{ legalPersonName: 'ABC Limited', legalPersonNameIdentifierType: 'LEGL' }],
          },
          nationalIdentification: {
            nationalIdentifier: 'CHE-123.456.789',
            nationalIdentifierType: 'RAID',
            registrationAuthority: 'RA000548',
          },
          countryOfRegistration: 'CL',
        },
      },
      missing: [],
    });
  });

  it('sends an LEI as LEIX even when a registration authority was given', () => {
    expect(
      travelRulePersonOf({
        kyc: { ...abc, registrationNumber: '506700GE1G29325QX363', registrationAuthority: 'RA000585' },
        cis: null,
      }).person,
    ).toHaveProperty('legalPerson.nationalIdentification', {
      nationalIdentifier: '506700GE1G29325QX363',
      nationalIdentifierType: 'LEIX',
    });
  });

  it('leaves out a registration number that is no LEI and has no registration authority', () => {
    const person = travelRulePersonOf({ kyc: { ...abc, registrationNumber: 'CHE-123.456.789' }, cis: null });
    expect(person.person).not.toHaveProperty('legalPerson.nationalIdentification');
    // Nor with an authority that is no GLEIF code, or a number longer than IVMS 101's 35 characters.
    for (const registration of [
      { registrationNumber: 'CHE-1', registrationAuthority: 'Zefix' },
      { registrationNumber: '1'.repeat(36), registrationAuthority: 'RA000548' },
    ]) {
      expect(travelRulePersonOf({ kyc: { ...abc, ...registration }, cis: null }).person).not.toHaveProperty(
        'legalPerson.nationalIdentification',
      );
    }
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

  it('leaves out a town or place of birth longer than IVMS 101 allows', () => {
    const person = travelRulePersonOf({
      kyc: { ...alice, townName: 'T'.repeat(36), placeOfBirthCity: 'P'.repeat(67) },
      cis: null,
    }).person;
    expect(person).not.toHaveProperty('naturalPerson.geographicAddress.0.townName');
    expect(person).not.toHaveProperty('naturalPerson.dateAndPlaceOfBirth');
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

  it('names an address that does not fit 7 lines of 70 characters, when nothing else identifies the party', () => {
    const tooLong = 'a\nb\nc\nd\ne\nf\ng\nh';
    expect(travelRulePersonOf({ kyc: { ...olderAlice, address: tooLong }, cis: null })).toEqual({
      person: null,
      missing: ['address_too_long'],
    });
    // Her date and place of birth identify her; the address is left out.
    expect(travelRulePersonOf({ kyc: { ...alice, address: tooLong }, cis: null })).toEqual({
      person: {
        naturalPerson: {
          name: { nameIdentifier: [{ primaryIdentifier: 'Alice Smith', nameIdentifierType: 'LEGL' }] },
          dateAndPlaceOfBirth: { dateOfBirth: '1990-02-25', placeOfBirth: 'London, GB' },
          countryOfResidence: 'US',
        },
      },
      missing: [],
    });
  });
});

describe('ivmsPlaceOfBirth', () => {
  it('writes the city and its country code, and needs the city', () => {
    expect(ivmsPlaceOfBirth(' London ', 'GB')).toBe('London, GB');
    expect(ivmsPlaceOfBirth('London', null)).toBe('London');
    expect(ivmsPlaceOfBirth(null, 'GB')).toBeNull();
    expect(ivmsPlaceOfBirth('  ', 'GB')).toBeNull();
    // placeOfBirth is Max70Text.
    expect(ivmsPlaceOfBirth('x'.repeat(66), 'GB')).toHaveLength(70);
    expect(ivmsPlaceOfBirth('x'.repeat(67), 'GB')).toBeNull();
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

  it('writes each leg as a whole IVMS 101 identity payload: town, date and place of birth, RAID', () => {
    // Only the form of the registration authority is checked: RA and 6 digits.
    const registered: TravelRuleKycRecord = {
      ...abc,
      registrationNumber: '76.123.456-7',
      registrationAuthority: 'RA000076',
    };
    const assembly = assembleTravelRule({
      ...complete,
      records: { buyer: { kyc: alice, cis: null }, seller: { kyc: registered, cis: null } },
    });
    if (!assembly.complete) throw new Error('expected complete');
    const alicePerson = {
      naturalPerson: {
        name: { nameIdentifier: [{ primaryIdentifier: 'Alice Smith', nameIdentifierType: 'LEGL' }] },
        geographicAddress: [
          {
            addressType: 'GEOG',
            townName: 'Walnut',
            addressLine: ['24 Potential Street', 'Walnut, CA 91765'],
            country: 'US',
          },
        ],
        dateAndPlaceOfBirth: { dateOfBirth: '1990-02-25', placeOfBirth: 'London, GB' },
        countryOfResidence: 'US',
      },
    };
    const abcPerson = {
      legalPerson: {
        name: { nameIdentifier: [{ legalPersonName: 'ABC Limited', legalPersonNameIdentifierType: 'LEGL' }] },
        geographicAddress: [
          {
            addressType: 'GEOG',
            townName: 'Santiago',
            addressLine: ['Avenida Apoquindo 3000, Santiago'],
            country: 'CL',
          },
        ],
        nationalIdentification: {
          nationalIdentifier: '76.123.456-7',
          nationalIdentifierType: 'RAID',
          registrationAuthority: 'RA000076',
        },
        countryOfRegistration: 'CL',
      },
    };
    expect(assembly.transfers).toEqual([
      {
        leg: 'asset',
        chain: 'BTC',
        symbol: 'BTC',
        amount: '50000000',
        originator: 'seller',
        beneficiary: 'buyer',
        ivms101: {
          originator: { originatorPersons: [abcPerson], accountNumber: ['bc1q-seller-refund'] },
          beneficiary: { beneficiaryPersons: [alicePerson], accountNumber: ['bc1q-buyer-payout'] },
        },
      },
      {
        leg: 'stable',
        chain: 'ETH',
        symbol: 'USDC',
        amount: '30000000000',
        originator: 'buyer',
        beneficiary: 'seller',
        ivms101: {
          originator: { originatorPersons: [alicePerson], accountNumber: ['0xBuyerRefund'] },
          beneficiary: { beneficiaryPersons: [abcPerson], accountNumber: ['0xSellerPayout'] },
        },
      },
    ]);
    // Each payload is what the IVMS 101 schema the export declares accepts.
    for (const transfer of assembly.transfers) {
      expect(ivms101IdentityPayloadSchema.parse(transfer.ivms101)).toEqual(transfer.ivms101);
    }
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
