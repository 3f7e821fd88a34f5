/**
 * Chapter 5: inside one step, where the gradients go. The One-step view's Gantt, embedded with its
 * own store (so the story's figure does not depend on what was done in that tab), computed by the
 * step model in the worker.
 */
import { useEffect, useId, useMemo, useState } from "react";
import { useStore } from "zustand";
import { stepWorker } from "../../../state/stepClient.ts";
import { createStepStore } from "../../../state/stepStore.ts";
import { STORY_CAPS, storyBucketStore, useStoryCap } from "../../../state/storyBucket.ts";
import { pct } from "../../format.ts";
import { Term } from "../../glossary/Term.tsx";
import { StepGantt } from "../../step/StepGantt.tsx";
import { ms } from "../../step/units.ts";
import "../../step/step.css";
import { Figure, Prose, Sources, SRC } from "../parts.tsx";

function useStoryStepStore() {
  // One store for the chapter's lifetime, computed on arrival.
  const app = useMemo(() => createStepStore(stepWorker), []);
  useEffect(() => {
    void app.start();
  }, [app]);
  return app.store;
}

function StepFigure() {
  const store = useStoryStepStore();
  const result = useStore(store, (s) => s.result);
  const model = useStore(store, (s) => s.model);
  // The size lives in the link (bk=); the chapter's own step store follows it.
  const cap = useStoryCap();
  useEffect(() => store.getState().setCapMb(cap), [store, cap]);
  const [hovered, setHovered] = useState<number | null>(null);
  const id = useId();
  if (!result || !model) return <p className="muted">Computing…</p>;
  const m = result.metrics;
  const base = result.baselineMetrics;
  return (
    <>
      <div className="story-knobs">
        <div className="knob" data-control="story.capMb">
          <label htmlFor={id}>bucket_cap_mb</label>
          <select
            id={id}
            value={cap}
            onChange={(e) => {
              const c = STORY_CAPS.find((x) => String(x) === e.target.value);
              if (c !== undefined) storyBucketStore.setState({ cap: c });
            }}
          >
            {STORY_CAPS.map((c) => (
              <option key={c} value={c}>
                {c} MiB{c === 25 ? " (PyTorch's default)" : ""}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p data-testid="gradients-numbers">
        {model.name}: step <strong data-testid="gradients-step">{ms(m.stepMs)}</strong> with overlap,{" "}
        {ms(base.stepMs)} without; {m.bucketCount} buckets; {pct(m.overlapRatio)} of communication hidden
        under backward.
      </p>
      <StepGantt result={result} hsdp={false} hovered={hovered} onHover={setHovered} />
    </>
  );
}

export function GradientsChapter() {
  return (
    <>
      <Prose>
        <p>
          Zoom in from the month to one step. In <Term id="ddp" /> every replica computes gradients on its own
          data, and all replicas must average them before the optimizer moves. Backward produces gradients
          from the last layer to the first; DDP packs them into buckets and all-reduces each bucket as soon as
          it is full, while backward carries on. Only communication still running after backward ends
          lengthens the step. Each all-reduce costs a latency per step plus bytes over bandwidth{" "}
          <span className="term-tail">
            (<Term id="alphaBeta" />
            ):
          </span>{" "}
          tiny buckets pay the latency often, huge ones start late. Try the three sizes.
        </p>
      </Prose>
      <Figure label="One DDP step, ResNet-50">
        <StepFigure />
      </Figure>
      <Sources items={[SRC.ddp, "Sample parameter lists printed from PyTorch 1.13 / torchvision 0.14."]} />
    </>
  );
}
