import {
  assetChains,
  type CisForm,
  type CisFormInput,
  cisEntityTypeLabels,
  cisEntityTypes,
  cisFormSchema,
  cisPdfRules,
  cisSettlementWindowLabels,
  cisSettlementWindows,
  cisSizeRangeLabels,
  cisSizeRanges,
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

// The selects start on "Choose…" so nobody submits a size or window they did not pick.
const emptySheet = {
  legal_name: '',
  entity_type: '' as CisFormInput['entity_type'],
  jurisdiction: '',
  source_of_funds: '',
  assets: [],
  size_range: '' as CisFormInput['size_range'],
  preferred_chains: [],
  settlement_window: '' as CisFormInput['settlement_window'],
} satisfies CisFormInput;

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
              if (field === 'pdf') setPdfError(issue.message);
              else if (field in emptySheet)
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
        <Label htmlFor={fieldId('jurisdiction')}>Jurisdiction (country code or name)</Label>
        <Input
          id={fieldId('jurisdiction')}
          autoComplete="country"
          aria-invalid={invalid('jurisdiction')}
          aria-describedby={describedBy('jurisdiction')}
          {...register('jurisdiction')}
        />
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
          <Label htmlFor={fieldId('size_range')}>Usual trade size</Label>
          <Select
            id={fieldId('size_range')}
            aria-invalid={invalid('size_range')}
            aria-describedby={describedBy('size_range')}
            {...register('size_range')}
          >
            <option value="">Choose…</option>
            {cisSizeRanges.map((range) => (
              <option key={range} value={range}>
                {cisSizeRangeLabels[range]}
              </option>
            ))}
          </Select>
          <FieldError id={`${fieldId('size_range')}-error`} message={errors.size_range?.message} />
        </div>
        <div className="space-y-2">
          <Label htmlFor={fieldId('settlement_window')}>Settlement window</Label>
          <Select
            id={fieldId('settlement_window')}
            aria-invalid={invalid('settlement_window')}
            aria-describedby={describedBy('settlement_window')}
            {...register('settlement_window')}
          >
            <option value="">Choose…</option>
            {cisSettlementWindows.map((window) => (
              <option key={window} value={window}>
                {cisSettlementWindowLabels[window]}
              </option>
            ))}
          </Select>
          <FieldError
            id={`${fieldId('settlement_window')}-error`}
            message={errors.settlement_window?.message}
          />
        </div>
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
