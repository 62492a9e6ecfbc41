import { cn } from '@/lib/cn.js';
import { LegalDocument } from '../components/legal-document.js';
import { complianceSections, kycTiers, regions } from '../content/compliance.js';

export function ComplianceRoute() {
  return (
    <LegalDocument
      title="Compliance"
      intro="How Covenant meets its KYC, AML and Travel Rule obligations, and where our work stands region by region."
      sections={complianceSections}
    >
      <section aria-labelledby="tiers-heading" className="mt-12">
        <h2 id="tiers-heading" className="font-semibold text-xl tracking-tight">
          KYC tiers
        </h2>
        <div className="mt-4 overflow-x-auto rounded-xl border border-border">
          <table className="w-full text-left text-sm">
            <thead className="bg-surface text-muted">
              <tr>
                <th scope="col" className="p-3 font-medium">
                  Tier
                </th>
                <th scope="col" className="p-3 font-medium">
                  Limit per transaction
                </th>
                <th scope="col" className="p-3 font-medium">
                  Review time
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {kycTiers.map((row) => (
                <tr key={row.tier}>
                  <th scope="row" className="p-3 font-semibold">
                    {row.tier}
                  </th>
                  <td className="p-3">{row.limit}</td>
                  <td className="p-3 text-muted">{row.review}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="regions-heading" className="mt-12">
        <h2 id="regions-heading" className="font-semibold text-xl tracking-tight">
          Regions
        </h2>
        <p className="mt-2 text-muted text-sm">
          Compliant: the region’s requirements for the trades we support are met by the controls on this page.
          In Progress: our work there is not finished, and we do not yet onboard its residents. A status is
          not a licence or a regulator’s endorsement.
        </p>
        <ul className="mt-4 divide-y divide-border rounded-xl border border-border">
          {regions.map((row) => (
            <li
              key={row.region}
              className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start sm:justify-between"
            >
              <div>
                <p className="font-medium">{row.region}</p>
                <p className="mt-1 text-muted text-sm">{row.note}</p>
              </div>
              <span
                className={cn(
                  'w-fit shrink-0 rounded-full border px-2.5 py-0.5 font-medium text-xs',
                  row.status === 'Compliant'
                    ? 'border-primary/40 text-primary'
                    : 'border-amber-400/40 text-amber-300',
                )}
              >
                {row.status}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </LegalDocument>
  );
}
