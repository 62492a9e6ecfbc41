import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useWebhookDeliveries, type WebhookDelivery } from '../api/get-webhook-deliveries.js';
import { useReplayWebhookDelivery } from '../api/replay-webhook-delivery.js';
import { ReadErrorState } from './read-error-state.js';

// The delivery log of one webhook: every event sent, how it went, and a replay for each.
export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const deliveries = useWebhookDeliveries(webhookId);
  const replay = useReplayWebhookDelivery(webhookId);

  if (deliveries.isError) {
    return (
      <ReadErrorState
        title="The delivery log could not be loaded."
        onRetry={() => void deliveries.refetch()}
      />
    );
  }
  if (!deliveries.data) return <Spinner label="Loading deliveries" />;
  if (deliveries.data.length === 0) return <p className="text-muted text-sm">No deliveries yet.</p>;
  return (
    <table className="w-full text-left text-sm">
      <thead className="text-muted text-xs">
        <tr>
          <th className="py-1 font-normal">Event</th>
          <th className="py-1 font-normal">Status</th>
          <th className="py-1 font-normal">Attempts</th>
          <th className="py-1 font-normal">Last Response</th>
          <th className="py-1 font-normal">Created</th>
          <th className="py-1" aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {deliveries.data.map((delivery) => (
          <tr key={delivery.id} className="border-border border-t">
            <td className="py-2 font-mono">{delivery.event}</td>
            <td className="py-2">{delivery.status}</td>
            <td className="py-2">{delivery.attempt_count}</td>
            <td className="py-2">{describeLastAttempt(delivery)}</td>
            <td className="py-2">{new Date(delivery.created_at).toLocaleString()}</td>
            <td className="py-2 text-right">
              <Button
                variant="outline"
                size="sm"
                disabled={replay.isPending}
                onClick={() =>
                  replay.mutate(delivery.id, {
                    onSuccess: () =>
                      toast.success('Delivery Replayed', { description: 'The event is being sent again.' }),
                    onError: (error) =>
                      toast.error('Error', { description: `Replay failed: ${error.message}` }),
                  })
                }
              >
                Replay
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// The receiver's status code, or why there was none (a timeout, a refused connection).
function describeLastAttempt({ attempts }: WebhookDelivery): string {
  const last = attempts.at(-1);
  if (!last) return '—';
  return last.response_status !== null ? `HTTP ${last.response_status}` : (last.error ?? 'No response');
}
