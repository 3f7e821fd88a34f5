import type { AdapterReport } from "../../gpu/adapter.ts";

const TEXT = { hardware: "Hardware GPU", software: "Software adapter", cpu: "CPU fallback" } as const;

export function AdapterBadge({ adapter }: { adapter: AdapterReport | null }) {
  if (!adapter) return <span className="lab-badge pending">Looking for a GPU…</span>;
  return (
    <span className={`lab-badge ${adapter.kind}`} data-testid="adapter-badge" title={adapter.label}>
      <strong>{TEXT[adapter.kind]}</strong> <span className="lab-badge-label">{adapter.label}</span>
    </span>
  );
}
