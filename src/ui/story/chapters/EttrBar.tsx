/** Chapter 7's bar: one policy's ETTR on one cluster, in the policy's colour, the number beside it. */
import type { PolicyKey } from "../../../sim/policies/policyKeys.ts";
import { pct } from "../../format.ts";
import { policyStyle } from "../../policyColour.ts";

export function EttrBar({
  policy,
  label,
  ettr,
  testid,
}: {
  policy: PolicyKey;
  label: string;
  ettr: number;
  testid: string;
}) {
  return (
    <div className="rc-bar">
      <span className="rc-bar-name">{label}</span>
      <span className="rc-bar-track">
        <span className="rc-bar-fill" style={{ width: `${ettr * 100}%`, ...policyStyle(policy) }} />
      </span>
      <strong className="mono" data-testid={testid}>
        {pct(ettr)}
      </strong>
    </div>
  );
}
