/**
 * The parts of the IVMS 101 data model (interVASP Messaging Standard, issue 1) a Covenant deal fills,
 * with the standard's element names, so the JSON is an IVMS 101 identity payload as other VASPs and
 * Travel Rule tools read it.
 */

/** Codes of the standard: LEGL = legal name; GEOG = a physical address held on the customer; LEIX = an LEI. */
export interface Ivms101NaturalPersonNameId {
  primaryIdentifier: string;
  secondaryIdentifier?: string;
  nameIdentifierType: 'LEGL' | 'ALIA' | 'BIRT' | 'MAID' | 'MISC';
}

export interface Ivms101LegalPersonNameId {
  legalPersonName: string;
  legalPersonNameIdentifierType: 'LEGL' | 'SHRT' | 'TRAD';
}

export interface Ivms101Address {
  addressType: 'HOME' | 'BIZZ' | 'GEOG';
  /** Free-format lines: at most 7, each at most 70 characters. */
  addressLine: string[];
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface Ivms101NationalIdentification {
  nationalIdentifier: string;
  nationalIdentifierType:
    | 'ARNU'
    | 'CCPT'
    | 'RAID'
    | 'DRLC'
    | 'FIIN'
    | 'TXID'
    | 'SOCS'
    | 'IDCD'
    | 'LEIX'
    | 'MISC';
  countryOfIssue?: string;
  registrationAuthority?: string;
}

export interface Ivms101DateAndPlaceOfBirth {
  /** YYYY-MM-DD. */
  dateOfBirth: string;
  placeOfBirth: string;
}

export interface Ivms101NaturalPerson {
  name: { nameIdentifier: Ivms101NaturalPersonNameId[] };
  geographicAddress?: Ivms101Address[];
  nationalIdentification?: Ivms101NationalIdentification;
  dateAndPlaceOfBirth?: Ivms101DateAndPlaceOfBirth;
  countryOfResidence?: string;
}

export interface Ivms101LegalPerson {
  name: { nameIdentifier: Ivms101LegalPersonNameId[] };
  geographicAddress?: Ivms101Address[];
  nationalIdentification?: Ivms101NationalIdentification;
  countryOfRegistration?: string;
}

/** A Person: exactly one of the two. */
export type Ivms101Person = { naturalPerson: Ivms101NaturalPerson } | { legalPerson: Ivms101LegalPerson };

export interface Ivms101Originator {
  originatorPersons: Ivms101Person[];
  accountNumber: string[];
}

export interface Ivms101Beneficiary {
  beneficiaryPersons: Ivms101Person[];
  accountNumber: string[];
}

/** The identity payload of one transfer. */
export interface Ivms101IdentityPayload {
  originator: Ivms101Originator;
  beneficiary: Ivms101Beneficiary;
}
