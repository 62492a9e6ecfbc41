import {
  assetChains,
  type CisForm,
  type CisFormInput,
  cisEntityTypeLabels,
  cisEntityTypes,
  cisFormSchema,
  cisPdfRules,
  cisSettlementWindowHours,
  countryCodes,
  countryName,
  tokenSymbols,
} from '@covenant/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Textarea } from '@/components/ui/textarea.js';
import { ApiError } from '@/lib/api-client.js';
import { useUploadCisSheet } from '../api/cis-upload.js';

// The selects start on "Choose…" and the numbers empty, so nobody submits a choice they did not make.
const emptySheet = {
  legal_name: '',
  entity_type: '' as CisFormInput['entity_type'],
  jurisdiction: '',
  source_of_funds: '',
  assets: [],
  preferred_chains: [],
} satisfies Partial<CisFormInput>;

const formFields = new Set(Object.keys(cisFormSchema.shape));

// Countries by their English name; the value sent is the ISO 3166-1 alpha-2 code.
const countries = countryCodes
  .map((code) => ({ code, name: countryName(code) }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

/**
 * A whole number typed with or without thousands separators ("1,000,000"); empty is undefined and
 * anything else NaN, so the shared schema says what is wrong.
 */
function readWholeNumber(text: string): number | undefined {
  const digits = text.replace(/[\s,]/g, '');
  if (digits === '') return undefined;
  return /^\d{1,15}$/.test(digits) ? Number(digits) : Number.NaN;
}

/** What is wrong with the chosen PDF before it is sent; the server checks its content again. */
function checkPdf(file: File | null): string | undefined {
  if (!file) return undefined;
  if (file.type && file.type !== cisPdfRules.contentType) return `${file.name} is not a PDF file`;
  if (file.size > cisPdfRules.maxBytes) return `${file.name} is larger than 10 MB`;
  return undefined;
}

/** A new Customer Information Sheet: the structured form and an optional signed PDF. */
export function CisUploadForm({ onUploaded, onCancel }: { onUploaded: () => void; onCancel: () => void }) {
  const form = useForm<CisFormInput, unknown, CisForm>({
    resolver: zodResolver(cisFormSchema),
    defaultValues: emptySheet,
  });
  const { register, handleSubmit, formState, setError } = form;
  const errors = formState.errors;
  const [pdf, setPdf] = useState<File | null>(null);
  const [pdfError, setPdfError] = useState<string>();
  const upload = useUploadCisSheet();
  const id = useId();

  const onSubmit = handleSubmit(
    (sheet) => {
      const problem = checkPdf(pdf);
      setPdfError(problem);
      if (problem) return;
      upload.mutate(
        { form: sheet, pdf },
        {
          onSuccess: () => {
            toast.success('CIS uploaded', { description: 'You can now attach it to your deals.' });
            onUploaded();
          },
          onError: (error) => {
            const issues = error instanceof ApiError ? issuesOf(error) : [];
            for (const issue of issues) {
              const field = issue.path.split('/')[1] ?? '';
              if (field === 'file') setPdfError(issue.message);
              else if (formFields.has(field))
                setError(field as FieldPath<CisFormInput>, { message: issue.message });
            }
            toast.error('CIS not uploaded', {
              description: error instanceof ApiError ? error.message : 'Please try again.',
            });
          },
        },
      );
    },
    () => setPdfError(checkPdf(pdf)),
  );

  const fieldId = (field: string) => `${id}-${field}`;
  const describedBy = (field: keyof CisFormInput) => (errors[field] ? `${fieldId(field)}-error` : undefined);
  const invalid = (field: keyof CisFormInput) => (errors[field] ? true : undefined);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Customer Information Sheet">
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={fieldId('legal_name')}>Legal name</Label>
          <Input
            id={fieldId('legal_name')}
            autoComplete="organization"
            aria-invalid={invalid('legal_name')}
            aria-describedby={describedBy('legal_name')}
            {...register('legal_name')}
          />
          <FieldError id={`${fieldId('legal_name')}-error`} message={errors.legal_name?.message} />
        </div>
        <div className="space-y-2">
          <Label htmlFor={fieldId('entity_type')}>Entity type</Label>
          <Select
            id={fieldId('entity_type')}
            aria-invalid={invalid('entity_type')}
            aria-describedby={describedBy('entity_type')}
            {...register('entity_type')}
          >
            <option value="">Choose…</option>
            {cisEntityTypes.map((type) => (
              <option key={type} value={type}>
                {cisEntityTypeLabels[type]}
              </option>
            ))}
          </Select>
          <FieldError id={`${fieldId('entity_type')}-error`} message={errors.entity_type?.message} />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor={fieldId('jurisdiction')}>Jurisdiction</Label>
        <Select
          id={fieldId('jurisdiction')}
          autoComplete="country"
          aria-invalid={invalid('jurisdiction')}
          aria-describedby={describedBy('jurisdiction')}
          {...register('jurisdiction')}
        >
          <option value="">Choose a country…</option>
          {countries.map(({ code, name }) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </Select>
        <FieldError id={`${fieldId('jurisdiction')}-error`} message={errors.jurisdiction?.message} />
      </div>
      <div className="space-y-2">
        <Label htmlFor={fieldId('source_of_funds')}>Source of funds</Label>
        <Textarea
          id={fieldId('source_of_funds')}
          rows={3}
          aria-invalid={invalid('source_of_funds')}
          aria-describedby={describedBy('source_of_funds')}
          {...register('source_of_funds')}
        />
        <FieldError id={`${fieldId('source_of_funds')}-error`} message={errors.source_of_funds?.message} />
      </div>
      <fieldset className="space-y-2" aria-describedby={describedBy('assets')}>
        <legend className="font-medium text-sm">Assets</legend>
        <div className="flex flex-wrap gap-4">
          {tokenSymbols.map((symbol) => (
            <label key={symbol} className="flex items-center gap-2 text-sm">
              <input type="checkbox" value={symbol} {...register('assets')} />
              {symbol}
            </label>
          ))}
        </div>
        <FieldError id={`${fieldId('assets')}-error`} message={errors.assets?.message} />
      </fieldset>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor={fieldId('size_min_usd')}>Minimum trade size (USD)</Label>
          <Input
            id={fieldId('size_min_usd')}
            inputMode="numeric"
            placeholder="1,000,000"
            aria-invalid={invalid('size_min_usd')}
            aria-describedby={describedBy('size_min_usd')}
            {...register('size_min_usd', { setValueAs: readWholeNumber })}
          />
          <FieldError id={`${fieldId('size_min_usd')}-error`} message={errors.size_min_usd?.message} />
        </div>
        <div className="space-y-2">
          <Label htmlFor={fieldId('size_max_usd')}>Maximum trade size (USD)</Label>
          <Input
            id={fieldId('size_max_usd')}
            inputMode="numeric"
            placeholder="10,000,000"
            aria-invalid={invalid('size_max_usd')}
            aria-describedby={describedBy('size_max_usd')}
            {...register('size_max_usd', { setValueAs: readWholeNumber })}
          />
          <FieldError id={`${fieldId('size_max_usd')}-error`} message={errors.size_max_usd?.message} />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor={fieldId('settlement_window_hours')}>Settlement window (hours)</Label>
        <Input
          id={fieldId('settlement_window_hours')}
          type="number"
          inputMode="numeric"
          min={cisSettlementWindowHours.min}
          max={cisSettlementWindowHours.max}
          step={1}
          className="sm:max-w-48"
          aria-invalid={invalid('settlement_window_hours')}
          aria-describedby={describedBy('settlement_window_hours')}
          {...register('settlement_window_hours', { setValueAs: readWholeNumber })}
        />
        <FieldError
          id={`${fieldId('settlement_window_hours')}-error`}
          message={errors.settlement_window_hours?.message}
        />
      </div>
      <fieldset className="space-y-2" aria-describedby={describedBy('preferred_chains')}>
        <legend className="font-medium text-sm">Preferred chains</legend>
        <div className="flex flex-wrap gap-4">
          {assetChains.map((chain) => (
            <label key={chain} className="flex items-center gap-2 text-sm">
              <input type="checkbox" value={chain} {...register('preferred_chains')} />
              {chain}
            </label>
          ))}
        </div>
        <FieldError id={`${fieldId('preferred_chains')}-error`} message={errors.preferred_chains?.message} />
      </fieldset>
      <div className="space-y-2">
        <Label htmlFor={fieldId('pdf')}>Signed PDF (optional)</Label>
        <Input
          id={fieldId('pdf')}
          type="file"
          accept="application/pdf"
          aria-invalid={pdfError ? true : undefined}
          aria-describedby={pdfError ? `${fieldId('pdf')}-error` : undefined}
          onChange={(event) => {
            setPdf(event.target.files?.[0] ?? null);
            setPdfError(undefined);
          }}
        />
        <FieldError id={`${fieldId('pdf')}-error`} message={pdfError} />
      </div>
      <div className="flex gap-3">
        <Button type="submit" disabled={upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Save CIS'}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
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
