import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { FormField } from '@/components/ui/form-field.js';
import { Spinner } from '@/components/ui/spinner.js';
import { type CreatedWebhook, useCreateWebhook } from '../api/create-webhook.js';
import { useDeleteWebhook } from '../api/delete-webhook.js';
import { useWebhooks } from '../api/get-webhooks.js';
import { ReadErrorState } from './read-error-state.js';
import { ShownOnceSecret } from './shown-once-secret.js';
import { WebhookDeliveries } from './webhook-deliveries.js';
import { webhookEvents } from './webhook-events.js';

export function WebhooksSection() {
  const webhooks = useWebhooks();
  const createWebhook = useCreateWebhook();
  const deleteWebhook = useDeleteWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['deal.created']);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [openLog, setOpenLog] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!URL.canParse(url.trim()) || !/^https?:/.test(url.trim())) {
      toast.error('Invalid URL', { description: 'Enter the full http(s) address of your endpoint.' });
      return;
    }
    if (events.length === 0) {
      toast.error('No Events', { description: 'Choose at least one event to receive.' });
      return;
    }
    createWebhook.mutate(
      { url: url.trim(), events },
      {
        onSuccess: (webhook) => {
          setCreated(webhook);
          setUrl('');
        },
        onError: (error) =>
          toast.error('Error', { description: `The webhook could not be added: ${error.message}` }),
      },
    );
  };

  const remove = (id: string, target: string) => {
    if (!window.confirm(`Delete the webhook to ${target}? No more events will be sent to it.`)) return;
    deleteWebhook.mutate(id, {
      onSuccess: () => toast.success('Webhook Deleted', { description: target }),
      onError: (error) =>
        toast.error('Error', { description: `The webhook could not be deleted: ${error.message}` }),
    });
  };

  const toggleEvent = (name: string, on: boolean) =>
    setEvents((current) => (on ? [...current, name] : current.filter((event) => event !== name)));

  return (
    <Card className="space-y-6">
      <div>
        <h2 className="font-semibold text-xl">Webhooks</h2>
        <p className="mt-1 text-muted text-sm">
          Each delivery carries <code>Covenant-Signature: t=…,v1=…</code>, an HMAC-SHA256 of{' '}
          <code>&lt;t&gt;.&lt;body&gt;</code> with the endpoint's secret.
        </p>
      </div>
      {/* noValidate: the URL check below answers with a toast like every other check here. */}
      <form noValidate onSubmit={submit} className="space-y-4">
        <FormField
          id="webhook-url"
          label="Endpoint URL"
          type="url"
          placeholder="https://example.com/covenant/webhooks"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
        <fieldset className="flex flex-wrap gap-4">
          <legend className="mb-2 font-medium text-sm">Events</legend>
          {webhookEvents.map((name) => (
            <label key={name} className="flex items-center gap-2 font-mono text-sm">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={events.includes(name)}
                onChange={(event) => toggleEvent(name, event.target.checked)}
              />
              {name}
            </label>
          ))}
        </fieldset>
        <Button type="submit" disabled={createWebhook.isPending}>
          {createWebhook.isPending ? 'Adding Webhook...' : 'Add Webhook'}
        </Button>
      </form>
      {created && (
        <ShownOnceSecret
          label={`Signing secret for ${created.url}`}
          secret={created.secret}
          onDismiss={() => setCreated(null)}
        />
      )}
      {webhooks.isError ? (
        <ReadErrorState title="Your webhooks could not be loaded." onRetry={() => void webhooks.refetch()} />
      ) : !webhooks.data ? (
        <Spinner label="Loading webhooks" />
      ) : webhooks.data.length === 0 ? (
        <p className="text-muted text-sm">No webhooks yet.</p>
      ) : (
        <ul className="divide-y divide-border" aria-label="Webhooks">
          {webhooks.data.map((webhook) => (
            <li key={webhook.id} className="space-y-3 py-3">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div className="min-w-0">
                  <p className="break-all font-medium">{webhook.url}</p>
                  <p className="font-mono text-muted text-xs">{webhook.events.join(', ')}</p>
                </div>
                <div className="flex gap-2">
                  <Button
                    variant="outline"
                    size="sm"
                    aria-expanded={openLog === webhook.id}
                    onClick={() => setOpenLog(openLog === webhook.id ? null : webhook.id)}
                  >
                    Delivery Log
                  </Button>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Delete webhook ${webhook.url}`}
                    disabled={deleteWebhook.isPending}
                    onClick={() => remove(webhook.id, webhook.url)}
                  >
                    Delete
                  </Button>
                </div>
              </div>
              {openLog === webhook.id && <WebhookDeliveries webhookId={webhook.id} />}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
