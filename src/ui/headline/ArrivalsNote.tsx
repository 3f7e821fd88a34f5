/**
 * The headline, told straight: next to the paper's 44 % → 80 %, one sentence on why this
 * explorer's default shows other numbers (random arrivals, not one failure exactly every 18 min),
 * and one click to see the other.
 */
import { diffFromDefaults, type Scenario } from "../../sim/scenario/index.ts";

type Arrivals = Scenario["failures"]["arrivals"];

/** True for the paper's headline cluster, whatever its arrivals, name or seed: where the note applies. */
export function isHeadlineCluster(s: Scenario): boolean {
  const { name: _n, seed: _s, failures, ...rest } = diffFromDefaults(s);
  const { arrivals: _a, ...otherFailures } = failures ?? {};
  return Object.keys(rest).length === 0 && Object.keys(otherFailures).length === 0;
}

export function ArrivalsNote({ arrivals, onSwitch }: { arrivals: Arrivals; onSwitch(to: Arrivals): void }) {
  const random = arrivals !== "fixed";
  return (
    <p className="arrivals-note" data-testid="arrivals-note">
      {random
        ? "The paper's 44 % → 80 % assumes exactly one failure every 18 minutes; here failures arrive at random, so some land during a recovery and merge into it, which is why synchronous training does better than 44 %. "
        : "These are the paper's fixed arrivals (exactly one failure every 18 minutes: 44 % → 80 %); real failures arrive at random, and then some merge into a recovery already under way. "}
      <button type="button" className="link-button" onClick={() => onSwitch(random ? "fixed" : "poisson")}>
        {random ? "Show the paper's fixed arrivals" : "Show random (Poisson) arrivals"}
      </button>
    </p>
  );
}
