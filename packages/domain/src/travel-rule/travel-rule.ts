import type { DealParty } from '../addresses/party-address-chains.js';
import { type StableSymbol, tokenDecimals } from '../assets.js';
import type { CisEntityType } from '../cis/cis.js';
import { formatUsd } from '../format-amount.js';
import { isRegistrationAuthority } from '../kyc/kyc-application.js';
import type {
  Ivms101Address,
  Ivms101IdentityPayload,
  Ivms101NationalIdentification,
  Ivms101Person,
} from './ivms101.js';
import type { travelRuleElements } from './travel-rule-document.js';

/** Spec §9: deals worth this many US dollars or more carry originator and beneficiary information. */
export const travelRuleThresholdUsd = 1_000n;

/**
 * Whether a deal is at or above the threshold, valued as the tier limits value it: by its stable leg,
 * USDC and USDT counting $1 each (`usdValueOf`), compared exactly in base units.
 */
export function travelRuleApplies(stableAmount: bigint, stableSymbol: StableSymbol): boolean {
  return stableAmount >= travelRuleThresholdUsd * 10n ** BigInt(tokenDecimals[stableSymbol]);
}

export type TravelRuleLeg = 'asset' | 'stable';

/**
 * Who sends and who receives on each leg: the seller deposits the asset and the buyer receives it, so
 * on the asset leg the seller is the originator and the buyer the beneficiary; the stable leg is the
 * reverse (the buyer pays the stablecoin to the seller).
 */
export const travelRuleRoles: Record<TravelRuleLeg, { originator: DealParty; beneficiary: DealParty }> = {
  asset: { originator: 'seller', beneficiary: 'buyer' },
  stable: { originator: 'buyer', beneficiary: 'seller' },
};

/** What a party's approved KYC record holds, as the Travel Rule reads it. */
export interface TravelRuleKycRecord {
  subjectType: 'individual' | 'company';
  legalName: string;
  /** ISO 3166-1 alpha-2: where the person lives or the company is registered, and the address's country. */
  country: string;
  /** Free text, lines separated by line breaks. */
  address: string | null;
  /** The town or city of the address (records from before it was asked hold none). */
  townName: string | null;
  /** Individuals; YYYY-MM-DD. */
  dateOfBirth: string | null;
  /** Individuals: the city of birth and its ISO 3166-1 alpha-2 country (older records hold none). */
  placeOfBirthCity: string | null;
  placeOfBirthCountry: string | null;
  /** Companies: the register's number, or an LEI. */
  registrationNumber: string | null;
  /** Companies: the GLEIF code of the register that issued a number that is no LEI, e.g. RA000585. */
  registrationAuthority: string | null;
}

/**
 * A party's records: the KYC record compliance approved (the verified source, which wins), and the CIS
 * the party attached to the deal, whose name, entity type and jurisdiction stand in when no KYC
 * record exists.
 */
export interface TravelRuleRecords {
  kyc: TravelRuleKycRecord | null;
  cis: { legal_name: string; entity_type: CisEntityType; jurisdiction: string } | null;
}

/** The party's own addresses on the deal: the account of each leg it takes part in. */
export interface TravelRuleAccounts {
  payoutAddress: string;
  refundAddress: string;
}

/**
 * Required elements a party can lack: its name; one of geographic address, national identifier, or
 * date and place of birth (`identification`); an address too long for IVMS 101's seven lines of 70
 * characters; and the accounts (its payout address where it receives, its refund address where it
 * sends: the address the leg's deposit comes from and returns to).
 */
export type TravelRuleElement = (typeof travelRuleElements)[number];

export const travelRuleElementLabels: Record<TravelRuleElement, string> = {
  name: 'legal name',
  identification: 'geographic address, national identifier, or date and place of birth',
  address_too_long: 'address short enough for IVMS 101 (at most 7 lines of 70 characters)',
  payout_address: 'payout address',
  refund_address: 'refund address',
};

export interface TravelRuleGap {
  party: DealParty;
  elements: TravelRuleElement[];
}

const maxAddressLines = 7;
const maxAddressLineLength = 70;
// IVMS 101: townName and nationalIdentifier are Max35Text, placeOfBirth Max70Text.
const maxTownNameLength = 35;
const maxNationalIdentifierLength = 35;
const maxPlaceOfBirthLength = 70;

/**
 * The address as IVMS 101 address lines: each line as written, long ones wrapped at spaces into lines
 * of at most 70 characters (a word longer than that is cut). Null when it needs more than 7 lines.
 */
export function ivmsAddressLines(address: string): string[] | null {
  const lines: string[] = [];
  for (const written of address.split(/\r?\n/)) {
    let current = '';
    for (const word of written.trim().split(/\s+/).filter(Boolean)) {
      for (let start = 0; start < word.length; start += maxAddressLineLength) {
        const piece = word.slice(start, start + maxAddressLineLength);
        if (current && current.length + 1 + piece.length <= maxAddressLineLength) {
          current = `${current} ${piece}`;
        } else {
          if (current) lines.push(current);
          current = piece;
        }
      }
    }
    if (current) lines.push(current);
  }
  return lines.length <= maxAddressLines ? lines : null;
}

/** An LEI (ISO 17442): 18 letters or digits and two check digits, ISO 7064 MOD 97-10 over the whole. */
export function isLei(text: string): boolean {
  if (!/^[0-9A-Z]{18}[0-9]{2}$/.test(text)) return false;
  const digits = [...text].map((char) => Number.parseInt(char, 36).toString()).join('');
  return BigInt(digits) % 97n === 1n;
}

/**
 * The place of birth as IVMS 101's free-text `placeOfBirth`: the city, then the country code
 * ("London, GB"); null without a city, or when it would exceed 70 characters.
 */
export function ivmsPlaceOfBirth(city: string | null, country: string | null): string | null {
  const town = city?.trim();
  if (!town) return null;
  const place = [town, country?.trim()].filter(Boolean).join(', ');
  return place.length <= maxPlaceOfBirthLength ? place : null;
}

/**
 * A company's registration number as IVMS 101 `nationalIdentification`: an LEI as type LEIX (it
 * needs no registration authority); any other number as RAID with the GLEIF code of its register
 * (constraint C9: a legal person's identifier other than an LEI names its registration authority,
 * and carries no country of issue). Undefined when there is no number, a number that is no LEI has no
 * valid registration authority, or it is longer than 35 characters.
 */
export function ivmsLegalPersonIdentification(
  registrationNumber: string | null,
  registrationAuthority: string | null,
): Ivms101NationalIdentification | undefined {
  const number = registrationNumber?.trim();
  if (!number) return undefined;
  if (isLei(number.toUpperCase())) {
    return { nationalIdentifier: number.toUpperCase(), nationalIdentifierType: 'LEIX' };
  }
  const authority = registrationAuthority?.trim().toUpperCase();
  if (!authority || !isRegistrationAuthority(authority) || number.length > maxNationalIdentifierLength) {
    return undefined;
  }
  return { nationalIdentifier: number, nationalIdentifierType: 'RAID', registrationAuthority: authority };
}

/**
 * The IVMS 101 Person of a party's records, and the required elements it lacks. The KYC record's
 * legal name goes whole into `primaryIdentifier` (the standard's choice when a name cannot be split
 * reliably into family and given names). The address carries its `townName` when the record holds
 * one; an individual's `dateAndPlaceOfBirth` is sent when both the date and the city of birth are
 * known; a company's registration number as `ivmsLegalPersonIdentification` makes it.
 */
export function travelRulePersonOf(records: TravelRuleRecords): {
  person: Ivms101Person | null;
  missing: TravelRuleElement[];
} {
  const { kyc, cis } = records;
  const name = (kyc?.legalName ?? cis?.legal_name ?? '').trim();
  const legal = (kyc ? kyc.subjectType : cis?.entity_type) === 'company';
  const country = kyc?.country ?? cis?.jurisdiction;
  const missing: TravelRuleElement[] = [];
  if (!name) missing.push('name');

  const addressText = kyc?.address?.trim();
  const addressLines = addressText ? ivmsAddressLines(addressText) : null;
  const townName = kyc?.townName?.trim();
  const geographicAddress: Ivms101Address[] | undefined =
    addressLines && addressLines.length > 0 && kyc
      ? [
          {
            addressType: 'GEOG',
            ...(townName && townName.length <= maxTownNameLength ? { townName } : {}),
            addressLine: addressLines,
            country: kyc.country,
          },
        ]
      : undefined;
  const nationalIdentification =
    legal && kyc
      ? ivmsLegalPersonIdentification(kyc.registrationNumber, kyc.registrationAuthority)
      : undefined;
  const birthDate = kyc?.dateOfBirth?.trim();
  const birthPlace = kyc ? ivmsPlaceOfBirth(kyc.placeOfBirthCity, kyc.placeOfBirthCountry) : null;
  const dateAndPlaceOfBirth =
    !legal && birthDate && birthPlace ? { dateOfBirth: birthDate, placeOfBirth: birthPlace } : undefined;

  if (!geographicAddress && !nationalIdentification && !dateAndPlaceOfBirth) {
    missing.push(addressText && !addressLines ? 'address_too_long' : 'identification');
  }
  if (missing.length > 0) return { person: null, missing };

  const identification = {
    ...(geographicAddress ? { geographicAddress } : {}),
    ...(nationalIdentification ? { nationalIdentification } : {}),
  };
  if (legal) {
    return {
      person: {
        legalPerson: {
          name: { nameIdentifier: [{ legalPersonName: name, legalPersonNameIdentifierType: 'LEGL' }] },
          ...identification,
          ...(country ? { countryOfRegistration: country } : {}),
        },
      },
      missing,
    };
  }
  return {
    person: {
      naturalPerson: {
        name: { nameIdentifier: [{ primaryIdentifier: name, nameIdentifierType: 'LEGL' }] },
        ...identification,
        ...(dateAndPlaceOfBirth ? { dateAndPlaceOfBirth } : {}),
        ...(country ? { countryOfResidence: country } : {}),
      },
    },
    missing,
  };
}

export interface TravelRuleLegTerms {
  leg: TravelRuleLeg;
  chain: string;
  symbol: string;
  /** Base units, decimal text. */
  amount: string;
}

/** One leg's transfer with its IVMS 101 identity payload. */
export interface TravelRuleTransfer extends TravelRuleLegTerms {
  originator: DealParty;
  beneficiary: DealParty;
  ivms101: Ivms101IdentityPayload;
}

export interface TravelRuleInput {
  legs: TravelRuleLegTerms[];
  records: Record<DealParty, TravelRuleRecords>;
  accounts: Record<DealParty, TravelRuleAccounts | null>;
}

export type TravelRuleAssembly =
  | { complete: true; transfers: TravelRuleTransfer[] }
  | { complete: false; gaps: TravelRuleGap[] };

/**
 * Builds the originator and beneficiary of each leg from both parties' records, or names every
 * required element missing and whose (buyer first). The originator's account is its refund address
 * on the leg's chain (where the deposit comes from and goes back to), the beneficiary's its payout
 * address.
 */
export function assembleTravelRule(input: TravelRuleInput): TravelRuleAssembly {
  const parties: DealParty[] = ['buyer', 'seller'];
  const persons = Object.fromEntries(
    parties.map((party) => [party, travelRulePersonOf(input.records[party])]),
  ) as Record<DealParty, ReturnType<typeof travelRulePersonOf>>;
  const gaps = parties
    .map((party) => {
      const elements = [...persons[party].missing];
      const accounts = input.accounts[party];
      const sends = input.legs.some((leg) => travelRuleRoles[leg.leg].originator === party);
      const receives = input.legs.some((leg) => travelRuleRoles[leg.leg].beneficiary === party);
      if (receives && !accounts?.payoutAddress) elements.push('payout_address');
      if (sends && !accounts?.refundAddress) elements.push('refund_address');
      return { party, elements };
    })
    .filter((gap) => gap.elements.length > 0);
  if (gaps.length > 0) return { complete: false, gaps };

  const transfers = input.legs.map((leg): TravelRuleTransfer => {
    const { originator, beneficiary } = travelRuleRoles[leg.leg];
    return {
      ...leg,
      originator,
      beneficiary,
      ivms101: {
        originator: {
          originatorPersons: [persons[originator].person!],
          accountNumber: [input.accounts[originator]!.refundAddress],
        },
        beneficiary: {
          beneficiaryPersons: [persons[beneficiary].person!],
          accountNumber: [input.accounts[beneficiary]!.payoutAddress],
        },
      },
    };
  });
  return { complete: true, transfers };
}

/**
 * The refusal's message, naming what is missing and whose: "Travel Rule information is missing for
 * this deal of $1,000 or more: the seller’s geographic address, national identifier, or date and
 * place of birth. Complete the KYC record (Verification page) before the escrow opens."
 */
export function travelRuleGapMessage(gaps: TravelRuleGap[]): string {
  const parts = gaps.map(
    (gap) =>
      `the ${gap.party}’s ${gap.elements.map((element) => travelRuleElementLabels[element]).join('; ')}`,
  );
  const identity = gaps.some((gap) =>
    gap.elements.some((element) => element !== 'payout_address' && element !== 'refund_address'),
  );
  return (
    `Travel Rule information is missing for this deal of $${formatUsd(travelRuleThresholdUsd)} or more: ` +
    `${parts.join(', and ')}. ` +
    (identity
      ? 'Complete the KYC record (Verification page) before the escrow opens.'
      : 'Set the addresses on the deal before the escrow opens.')
  );
}
