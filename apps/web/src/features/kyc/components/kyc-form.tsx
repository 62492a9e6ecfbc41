import {
  type KycApplication,
  type KycApplicationInput,
  kycApplicationSchema,
  kycDocumentRules,
  type TradingTier,
  tierLabels,
  tradingTiers,
} from '@covenant/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo, useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Textarea } from '@/components/ui/textarea.js';
import { ApiError } from '@/lib/api-client.js';
import { useSubmitKyc } from '../api/submit-kyc.js';

// Spec §6: the documented limits and processing times of each tier.
const tierDescriptions: Record<TradingTier, string> = {
  basic: 'up to $10,000 per transaction, 1-2 business days',
  enhanced: 'up to $100,000 per transaction, 3-5 business days',
  institutional: 'custom limits, 7-14 business days',
};

const emptyApplication: KycApplicationInput = {
  subject_type: 'individual',
  legal_name: '',
  country: '',
  date_of_birth: '',
  place_of_birth_city: '',
  place_of_birth_country: '',
  registration_number: '',
  registration_authority: '',
  address: '',
  town_name: '',
  requested_tier: 'basic',
};

const megabyte = 1024 * 1024;

/** What is wrong with the chosen files before they are sent; the server checks their content again. */
function checkDocuments(files: File[]): string | undefined {
  if (files.length < kycDocumentRules.minFiles || files.length > kycDocumentRules.maxFiles) {
    return 'Attach between 1 and 5 documents';
  }
  const tooLarge = files.find((file) => file.size > kycDocumentRules.maxBytes);
  if (tooLarge) return `${tooLarge.name} is larger than ${kycDocumentRules.maxBytes / megabyte} MB`;
  return undefined;
}

/** The trader's verification request: identity or company details and 1–5 documents. */
export function KycForm({ onSubmitted }: { onSubmitted?: () => void }) {
  const today = new Date().toISOString().slice(0, 10);
  const schema = useMemo(() => kycApplicationSchema(today), [today]);
  const form = useForm<KycApplicationInput, unknown, KycApplication>({
    resolver: zodResolver(schema),
    defaultValues: emptyApplication,
  });
  const { register, handleSubmit, formState, setError, watch } = form;
  const errors = formState.errors;
  const [documents, setDocuments] = useState<File[]>([]);
  const [documentsError, setDocumentsError] = useState<string>();
  const submit = useSubmitKyc();
  const id = useId();
  const subjectType = watch('subject_type');

  const onSubmit = handleSubmit(
    (application) => {
      const problem = checkDocuments(documents);
      setDocumentsError(problem);
      if (problem) return;
      submit.mutate(
        { application, documents },
        {
          onSuccess: () => {
            toast.success('Verification submitted', {
              description: 'Our compliance team reviews it and tells you by e-mail.',
            });
            onSubmitted?.();
          },
          onError: (error) => {
            const issues = error instanceof ApiError ? issuesOf(error) : [];
            for (const issue of issues) {
              const field = issue.path.split('/')[1] ?? '';
              if (field === 'documents') setDocumentsError(issue.message);
              else if (field in emptyApplication) {
                setError(field as FieldPath<KycApplicationInput>, { message: issue.message });
              }
            }
            toast.error('Verification not submitted', {
              description: error instanceof ApiError ? error.message : 'Please try again.',
            });
          },
        },
      );
    },
    () => setDocumentsError(checkDocuments(documents)),
  );

  const fieldId = (field: string) => `${id}-${field}`;
  const describedBy = (field: keyof KycApplicationInput) =>
    errors[field] ? `${fieldId(field)}-error` : undefined;
  const invalid = (field: keyof KycApplicationInput) => (errors[field] ? true : undefined);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Verification form">
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={fieldId('subject_type')}>I am verifying</Label>
          <Select id={fieldId('subject_type')} {...register('subject_type')}>
            <option value="individual">Myself (individual)</option>
            <option value="company">A company</option>
          </Select>
        </div>
        <div className="space-y-2">
          <Label htmlFor={fieldId('requested_tier')}>Requested tier</Label>
          <Select id={fieldId('requested_tier')} {...register('requested_tier')}>
            {tradingTiers.map((tier) => (
              <option key={tier} value={tier}>
                {tierLabels[tier]} — {tierDescriptions[tier]}
              </option>
            ))}
          </Select>
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor={fieldId('legal_name')}>
          {subjectType === 'company' ? 'Company legal name' : 'Full legal name'}
        </Label>
        <Input
          id={fieldId('legal_name')}
          autoComplete={subjectType === 'company' ? 'organization' : 'name'}
          aria-invalid={invalid('legal_name')}
          aria-describedby={describedBy('legal_name')}
          {...register('legal_name')}
        />
        <FieldError id={`${fieldId('legal_name')}-error`} message={errors.legal_name?.message} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={fieldId('country')}>Country (ISO code, e.g. DE)</Label>
          <Input
            id={fieldId('country')}
            maxLength={2}
            autoComplete="country"
            className="uppercase"
            aria-invalid={invalid('country')}
            aria-describedby={describedBy('country')}
            {...register('country')}
          />
          <FieldError id={`${fieldId('country')}-error`} message={errors.country?.message} />
        </div>
        {subjectType === 'company' ? (
          <div className="space-y-2">
            <Label htmlFor={fieldId('registration_number')}>Registration number</Label>
            <Input
              id={fieldId('registration_number')}
              aria-invalid={invalid('registration_number')}
              aria-describedby={describedBy('registration_number')}
              {...register('registration_number')}
            />
            <FieldError
              id={`${fieldId('registration_number')}-error`}
              message={errors.registration_number?.message}
            />
          </div>
        ) : (
          <div className="space-y-2">
            <Label htmlFor={fieldId('date_of_birth')}>Date of birth</Label>
            <Input
              id={fieldId('date_of_birth')}
              type="date"
              max={today}
              autoComplete="bday"
              aria-invalid={invalid('date_of_birth')}
              aria-describedby={describedBy('date_of_birth')}
              {...register('date_of_birth')}
            />
            <FieldError id={`${fieldId('date_of_birth')}-error`} message={errors.date_of_birth?.message} />
          </div>
        )}
      </div>
      {subjectType === 'company' ? (
        <div className="space-y-2">
          <Label htmlFor={fieldId('registration_authority')}>Registration authority (optional)</Label>
          <p id={`${fieldId('registration_authority')}-hint`} className="text-muted text-sm">
            The GLEIF code of the register that issued the number, e.g. RA000585 for Companies House. Not
            needed for an LEI.
          </p>
          <Input
            id={fieldId('registration_authority')}
            maxLength={8}
            className="uppercase"
            aria-invalid={invalid('registration_authority')}
            aria-describedby={`${fieldId('registration_authority')}-hint${errors.registration_authority ? ` ${fieldId('registration_authority')}-error` : ''}`}
            {...register('registration_authority')}
          />
          <FieldError
            id={`${fieldId('registration_authority')}-error`}
            message={errors.registration_authority?.message}
          />
        </div>
      ) : (
        <div className="grid gap-5 sm:grid-cols-2">
          <div className="space-y-2">
            <Label htmlFor={fieldId('place_of_birth_city')}>City of birth</Label>
            <Input
              id={fieldId('place_of_birth_city')}
              aria-invalid={invalid('place_of_birth_city')}
              aria-describedby={describedBy('place_of_birth_city')}
              {...register('place_of_birth_city')}
            />
            <FieldError
              id={`${fieldId('place_of_birth_city')}-error`}
              message={errors.place_of_birth_city?.message}
            />
          </div>
          <div className="space-y-2">
            <Label htmlFor={fieldId('place_of_birth_country')}>Country of birth (ISO code, e.g. DE)</Label>
            <Input
              id={fieldId('place_of_birth_country')}
              maxLength={2}
              className="uppercase"
              aria-invalid={invalid('place_of_birth_country')}
              aria-describedby={describedBy('place_of_birth_country')}
              {...register('place_of_birth_country')}
            />
            <FieldError
              id={`${fieldId('place_of_birth_country')}-error`}
              message={errors.place_of_birth_country?.message}
            />
          </div>
        </div>
      )}
      <div className="space-y-2">
        <Label htmlFor={fieldId('address')}>
          {subjectType === 'company' ? 'Registered address' : 'Residential address'}
        </Label>
        <Textarea
          id={fieldId('address')}
          rows={3}
          autoComplete="street-address"
          aria-invalid={invalid('address')}
          aria-describedby={describedBy('address')}
          {...register('address')}
        />
        <FieldError id={`${fieldId('address')}-error`} message={errors.address?.message} />
      </div>
      <div className="space-y-2">
        <Label htmlFor={fieldId('town_name')}>Town or city</Label>
        <Input
          id={fieldId('town_name')}
          autoComplete="address-level2"
          aria-invalid={invalid('town_name')}
          aria-describedby={describedBy('town_name')}
          {...register('town_name')}
        />
        <FieldError id={`${fieldId('town_name')}-error`} message={errors.town_name?.message} />
      </div>
      <div className="space-y-2">
        <Label htmlFor={fieldId('documents')}>Documents</Label>
        <p id={`${fieldId('documents')}-hint`} className="text-muted text-sm">
          {subjectType === 'company'
            ? 'Certificate of incorporation and proof of address.'
            : 'Passport or national ID card, and proof of address.'}{' '}
          PDF, PNG or JPEG, up to 5 files of at most 10 MB each. Stored encrypted.
        </p>
        <Input
          id={fieldId('documents')}
          type="file"
          multiple
          accept="application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg"
          className="h-auto py-2"
          aria-invalid={documentsError ? true : undefined}
          aria-describedby={`${fieldId('documents')}-hint${documentsError ? ` ${fieldId('documents')}-error` : ''}`}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            setDocuments(files);
            setDocumentsError(files.length > 0 ? checkDocuments(files) : undefined);
          }}
        />
        {documents.length > 0 && (
          <ul className="text-muted text-sm">
            {documents.map((document) => (
              <li key={`${document.name}-${document.size}`}>
                {document.name} ({Math.max(1, Math.round(document.size / 1024))} KB)
              </li>
            ))}
          </ul>
        )}
        <FieldError id={`${fieldId('documents')}-error`} message={documentsError} />
      </div>
      <Button type="submit" disabled={submit.isPending}>
        {submit.isPending ? 'Submitting…' : 'Submit for Verification'}
      </Button>
    </form>
  );
}

function issuesOf(error: ApiError): { path: string; message: string }[] {
  const issues = error.details?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.filter(
    (issue): issue is { path: string; message: string } =>
      typeof issue?.path === 'string' && typeof issue?.message === 'string',
  );
}
