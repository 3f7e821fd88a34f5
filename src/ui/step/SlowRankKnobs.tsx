/**
 * The slow rank's knob: none, a rank whose backward is slow, or one whose link on the
 * all-reduce ring is; and by how much, in the range the link's decoder and the CLI take
 * (STEP_RANGES.slowFactor, one table).
 */
import { useStepStore } from "../../state/stepStore.ts";
import { participatingRanks } from "../../step/collectiveCost.ts";
import { NO_SLOW_RANK, SLOW_RANK_KINDS, type SlowRankKind, slowLinkText } from "../../step/slowRank.ts";
import { factorText } from "../../step/slowRankText.ts";
import { STEP_RANGES } from "../../step/stepRanges.ts";
import { NumberField } from "../form/NumberField.tsx";

const KIND_LABELS: Readonly<Record<SlowRankKind, string>> = {
  none: "None",
  compute: "Slow backward",
  link: "Slow link",
};

export function SlowRankKnobs() {
  const slow = useStepStore((s) => s.config.slowRank ?? NO_SLOW_RANK);
  const parallel = useStepStore((s) => s.config.parallel);
  const setSlowRank = useStepStore((s) => s.setSlowRank);
  const ranks = participatingRanks(parallel);
  const alone = ranks < 2;
  const { min, max } = STEP_RANGES.slowFactor;
  return (
    <fieldset className="step-group">
      <legend>A slow rank</legend>
      <div className="step-segmented" role="radiogroup" aria-label="Slow rank">
        {SLOW_RANK_KINDS.map((k) => (
          <label key={k} className={slow.kind === k ? "active" : ""}>
            <input
              type="radio"
              name="step-slow-rank"
              checked={slow.kind === k}
              onChange={() => setSlowRank({ kind: k })}
            />
            {KIND_LABELS[k]}
          </label>
        ))}
      </div>
      <p className="muted step-small step-mode-note" data-testid="slow-rank-note">
        {alone
          ? "With one GPU taking part there is no other rank for a slow one to hold back."
          : slow.kind === "compute"
            ? `Rank ${ranks - 1}'s backward takes ${factorText(slow.factor)}× as long (a throttled GPU): every all-reduce waits for its gradients.`
            : slow.kind === "link"
              ? `Rank ${ranks - 1}'s ${slowLinkText(parallel)} has 1/${factorText(slow.factor)} of its bandwidth (a flapping NIC, a congested port): every ring runs at its pace.`
              : "Every rank at full speed. A synchronous step waits for its slowest rank: pick one to see how long."}
      </p>
      <NumberField
        className="step-field"
        label="Slowdown factor"
        unit="×"
        value={slow.factor}
        min={min}
        max={max}
        disabled={slow.kind === "none"}
        testId="slow-factor"
        onChange={(factor) => setSlowRank({ factor })}
        help={`${min}–${max}. Greyhound (ATC '25): jobs met by slowdowns ran 1.34× slower on average`}
      />
    </fieldset>
  );
}
