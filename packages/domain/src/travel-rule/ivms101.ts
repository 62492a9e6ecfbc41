import { z } from 'zod';

/**
 * The parts of the IVMS 101 data model (interVASP Messaging Standard, issue 1) a Covenant deal fills,
 * with the standard's element names, so the JSON is an IVMS 101 identity payload as other VASPs and
 * Travel Rule tools read it. Codes: LEGL = legal name; GEOG = a physical address held on the
 * customer; LEIX = a Legal Entity Identifier; RAID = an identifier issued by the registration authority
 * named (a GLEIF RA code).
 */

const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/)
  .describe('ISO 3166-1 alpha-2');

export const ivms101AddressSchema = z.object({
  addressType: z.enum(['HOME', 'BIZZ', 'GEOG']),
  townName: z.string().max(35).optional(),
  addressLine: z.array(z.string().max(70)).max(7).describe('free-format lines: at most 7 of 70 characters'),
  country: countryCode,
});

export const ivms101NationalIdentificationSchema = z.object({
  nationalIdentifier: z.string().max(35),
  nationalIdentifierType: z.enum([
    'ARNU',
    'CCPT',
    'RAID',
    'DRLC',
    'FIIN',
    'TXID',
    'SOCS',
    'IDCD',
    'LEIX',
    'MISC',
  ]),
  countryOfIssue: countryCode.optional(),
  registrationAuthority: z
    .string()
    .regex(/^RA\d{6}$/)
    .optional()
    .describe('GLEIF registration authority code; required for a legal person’s identifier other than LEIX'),
});

export const ivms101NaturalPersonSchema = z.object({
  name: z.object({
    nameIdentifier: z.array(
      z.object({
        primaryIdentifier: z.string(),
        secondaryIdentifier: z.string().optional(),
        nameIdentifierType: z.enum(['LEGL', 'ALIA', 'BIRT', 'MAID', 'MISC']),
      }),
    ),
  }),
  geographicAddress: z.array(ivms101AddressSchema).optional(),
  nationalIdentification: ivms101NationalIdentificationSchema.optional(),
  dateAndPlaceOfBirth: z
    .object({ dateOfBirth: z.string().describe('YYYY-MM-DD'), placeOfBirth: z.string().max(70) })
    .optional(),
  countryOfResidence: countryCode.optional(),
});

export const ivms101LegalPersonSchema = z.object({
  name: z.object({
    nameIdentifier: z.array(
      z.object({
        legalPersonName: z.string(),
        legalPersonNameIdentifierType: z.enum(['LEGL', 'SHRT', 'TRAD']),
      }),
    ),
  }),
  geographicAddress: z.array(ivms101AddressSchema).optional(),
  nationalIdentification: ivms101NationalIdentificationSchema.optional(),
  countryOfRegistration: countryCode.optional(),
});

/** A Person: exactly one of a natural and a legal person. */
export const ivms101PersonSchema = z.union([
  z.object({ naturalPerson: ivms101NaturalPersonSchema }),
  z.object({ legalPerson: ivms101LegalPersonSchema }),
]);

/** The identity payload of one transfer: who sends from which account, who receives at which. */
export const ivms101IdentityPayloadSchema = z.object({
  originator: z.object({
    originatorPersons: z.array(ivms101PersonSchema),
    accountNumber: z.array(z.string()),
  }),
  beneficiary: z.object({
    beneficiaryPersons: z.array(ivms101PersonSchema),
    accountNumber: z.array(z.string()),
  }),
});

export type Ivms101Address = z.infer<typeof ivms101AddressSchema>;
export type Ivms101NationalIdentification = z.infer<typeof ivms101NationalIdentificationSchema>;
export type Ivms101NaturalPerson = z.infer<typeof ivms101NaturalPersonSchema>;
export type Ivms101LegalPerson = z.infer<typeof ivms101LegalPersonSchema>;
export type Ivms101Person = z.infer<typeof ivms101PersonSchema>;
export type Ivms101IdentityPayload = z.infer<typeof ivms101IdentityPayloadSchema>;
