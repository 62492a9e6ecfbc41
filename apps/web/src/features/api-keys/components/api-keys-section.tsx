import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { FormField } from '@/components/ui/form-field.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Spinner } from '@/components/ui/spinner.js';
import { type CreatedApiKey, useCreateApiKey } from '../api/create-api-key.js';
import { type ApiKeyScope, useApiKeys } from '../api/get-api-keys.js';
import { useRevokeApiKey } from '../api/revoke-api-key.js';
import { ReadErrorState } from './read-error-state.js';
import { ShownOnceSecret } from './shown-once-secret.js';

const formatTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

// The choices offered when a key is created; `trade` brings `read` on the server too.
const scopeChoices: Record<string, { label: string; scopes: ApiKeyScope[] }> = {
  read: { label: 'Read only', scopes: ['read'] },
  trade: { label: 'Read and trade', scopes: ['read', 'trade'] },
};

const describeScopes = (scopes: ApiKeyScope[]) => (scopes.includes('trade') ? 'read and trade' : 'read only');

export function ApiKeysSection() {
  const keys = useApiKeys();
  const createKey = useCreateApiKey();
  const revokeKey = useRevokeApiKey();
  const [name, setName] = useState('');
  const [scopeChoice, setScopeChoice] = useState<keyof typeof scopeChoices>('read');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      toast.error('Name Required', {
        description: 'Give the key a name, such as the system that will use it.',
      });
      return;
    }
    createKey.mutate(
      { name: trimmed, scopes: scopeChoices[scopeChoice]!.scopes },
      {
        onSuccess: (key) => {
          setCreated(key);
          setName('');
        },
        onError: (error) =>
          toast.error('Error', { description: `The key could not be created: ${error.message}` }),
      },
    );
  };

  const revoke = (id: string, keyName: string) => {
    if (!window.confirm(`Revoke "${keyName}"? Requests made with it will be refused at once.`)) return;
    revokeKey.mutate(id, {
      onSuccess: () => toast.success('API Key Revoked', { description: `"${keyName}" no longer works.` }),
      onError: (error) =>
        toast.error('Error', { description: `The key could not be revoked: ${error.message}` }),
    });
  };

  return (
    <Card className="space-y-6">
      <div>
        <h2 className="font-semibold text-xl">API Keys</h2>
        <p className="mt-1 text-muted text-sm">
          Send a key as <code>Authorization: Bearer &lt;key&gt;</code> to call the API as yourself. A
          read-only key reads your deals; a trade key also acts on them. No key can change your escrow key,
          wallets, API keys or webhooks: those need you signed in.
        </p>
      </div>
      <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <FormField
            id="api-key-name"
            label="Key Name"
            placeholder="Treasury bot"
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="space-y-2 sm:w-48">
          <Label htmlFor="api-key-scopes">Access</Label>
          <Select
            id="api-key-scopes"
            value={scopeChoice}
            onChange={(event) => setScopeChoice(event.target.value)}
          >
            {Object.entries(scopeChoices).map(([value, choice]) => (
              <option key={value} value={value}>
                {choice.label}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" disabled={createKey.isPending}>
          {createKey.isPending ? 'Creating Key...' : 'Create Key'}
        </Button>
      </form>
      {created && (
        <ShownOnceSecret
          label={`Your new API key "${created.name}"`}
          secret={created.key}
          onDismiss={() => setCreated(null)}
        />
      )}
      {keys.isError ? (
        <ReadErrorState title="Your API keys could not be loaded." onRetry={() => void keys.refetch()} />
      ) : !keys.data ? (
        <Spinner label="Loading API keys" />
      ) : keys.data.length === 0 ? (
        <p className="text-muted text-sm">No API keys yet.</p>
      ) : (
        <ul className="divide-y divide-border" aria-label="API keys">
          {keys.data.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium">{key.name}</p>
                <p className="text-muted text-xs">
                  <code>{key.prefix}…</code> · {describeScopes(key.scopes)} · created{' '}
                  {formatTime(key.created_at)} · last used {formatTime(key.last_used_at)}
                </p>
              </div>
              <Button
                variant="outline"
                size="sm"
                aria-label={`Revoke ${key.name}`}
                disabled={revokeKey.isPending}
                onClick={() => revoke(key.id, key.name)}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
