import { cn } from '@/lib/cn.js';
import type { Endpoint } from '../api/list-endpoints.js';
import { groupEndpoints } from '../api/list-endpoints.js';

const methodColour: Record<string, string> = {
  GET: 'border-sky-400/40 text-sky-300',
  POST: 'border-primary/40 text-primary',
  PUT: 'border-amber-400/40 text-amber-300',
  PATCH: 'border-amber-400/40 text-amber-300',
  DELETE: 'border-destructive/40 text-destructive',
};

export function EndpointList({ endpoints }: { endpoints: Endpoint[] }) {
  return (
    <div className="space-y-10">
      {groupEndpoints(endpoints).map(({ group, endpoints: inGroup }) => (
        <section key={group} aria-label={group}>
          <h3 className="font-semibold text-lg">{group}</h3>
          <ul className="mt-3 divide-y divide-border rounded-xl border border-border">
            {inGroup.map((endpoint) => (
              <li
                key={`${endpoint.method} ${endpoint.path}`}
                className="grid gap-2 p-4 md:grid-cols-[5rem_minmax(0,1fr)_8rem]"
              >
                <span
                  className={cn(
                    'w-fit self-start rounded-md border px-2 py-0.5 font-mono font-semibold text-xs',
                    methodColour[endpoint.method] ?? 'border-border text-muted',
                  )}
                >
                  {endpoint.method}
                </span>
                <div className="min-w-0">
                  <code className="break-all font-mono text-sm">{endpoint.path}</code>
                  <p className="mt-1 text-muted text-sm">{endpoint.description}</p>
                  {endpoint.pending && (
                    <p className="mt-1 text-amber-300 text-xs">Documented; not yet served by this server.</p>
                  )}
                </div>
                <span className="text-muted text-sm md:text-right">
                  <span className="sr-only">Authentication: </span>
                  {endpoint.auth}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
