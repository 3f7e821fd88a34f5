/**
 * Live FT-HSDP training: R replicas of a small MLP train on the lab's simulated devices, their
 * gradients averaged by the lab's ring all-reduce; a replica fails (on schedule or by the button),
 * the others carry on, and it comes back by copying a healthy peer's state. Beside it the same
 * failures under synchronous training with rollback, and a run without failures.
 */

import { useEffect, useState } from "react";
import { trainStore, useTrainStore } from "../../state/trainStore.ts";
import { Panel } from "../boundary/Panel.tsx";
import { AdapterBadge } from "../lab/AdapterBadge.tsx";
import { DilocoQ } from "./DilocoQ.tsx";
import { TrainBadge, TrainChecks } from "./TrainBadge.tsx";
import { TrainChart } from "./TrainChart.tsx";
import { TrainForm } from "./TrainForm.tsx";
import "../lab/lab.css";
import "./train.css";

export function TrainView() {
  const status = useTrainStore((s) => s.status);
  const adapter = useTrainStore((s) => s.adapter);
  const error = useTrainStore((s) => s.error);
  const progress = useTrainStore((s) => s.progress);
  const config = useTrainStore((s) => s.config);
  const run = useTrainStore((s) => s.run);
  const stop = useTrainStore((s) => s.stop);
  const kill = useTrainStore((s) => s.kill);
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (trainStore.getState().adapter === null) void trainStore.getState().start();
  }, []);

  const running = status === "running";
  const runs = progress?.runs ?? [];
  const slowest = runs.length > 0 ? Math.min(...runs.map((r) => (r.done ? config.steps : r.step))) : 0;
  const d = config.diloco;
  // DiLoCo without failures trains twice the steps (for q): the steps axis spans its run.
  const stepsShown = Math.max(config.steps, ...runs.map((r) => r.step));
  const total = d ? 2 * config.steps : config.steps;
  const at = d ? Math.max(0, ...runs.map((r) => r.step)) : slowest;
  return (
    <div className="lab train">
      <div className="lab-head">
        <h2>{d ? "Live DiLoCo training" : "Live FT-HSDP training"}</h2>
        <AdapterBadge adapter={adapter} />
        <TrainBadge progress={progress} />
      </div>
      {d ? (
        <p className="lab-teach">
          {config.replicas} replicas of a two-hidden-layer MLP learn to tell {5} interleaved spirals apart.
          DDP averages every step&apos;s gradients with the lab&apos;s ring all-reduce, then takes an AdamW
          step (lr {d.innerLr}). DiLoCo lets each replica take H = {d.every} AdamW steps on its own shards
          with no traffic at all, then averages the replicas&apos; pseudo-gradients (outer weights − own
          weights) in one all-reduce and moves the outer weights by Nesterov SGD (lr {d.outerLr}, momentum{" "}
          {d.outerMomentum}); every replica starts the next round from them. A replica that fails mid-round
          loses its own round and, once back, waits for the next round and copies its state from a peer; one
          that fails in the sync (at a round&apos;s last step) discards the round for everyone. DiLoCo without
          failures trains twice DDP&apos;s steps, so that q (DDP&apos;s steps ÷ the steps DiLoCo needs to
          reach DDP&apos;s final held-out loss) can be read down to 0.5.
        </p>
      ) : (
        <p className="lab-teach">
          {config.replicas} replicas of a two-hidden-layer MLP learn to tell {5} interleaved spirals apart.
          Each trains on its own shard of every global batch; the lab&apos;s ring all-reduce sums the
          gradients and divides by the replicas that computed one. When a replica fails, FT-HSDP carries on
          with the others (at the learning rate its policy gives); when it returns it copies weights and
          momentum from a healthy peer and joins with a zero gradient. Synchronous training stops everyone and
          rolls back to its last checkpoint.
          {adapter?.kind === "cpu" &&
            " No WebGPU here: the replicas train on the CPU in float32 instead (the lab's CPU fallback)."}
          {adapter?.kind === "software" &&
            " This adapter is software (the GPU is emulated on the CPU), so it trains slowly."}
        </p>
      )}
      {(status === "lost" || status === "error") && (
        <div className="lab-alert" role="alert">
          <p>{error}</p>
          <button type="button" onClick={() => void trainStore.getState().start()}>
            Retry
          </button>
        </div>
      )}
      <Panel what="Live training" className="lab-card" aria-labelledby="train-title">
        <h2 id="train-title">Train</h2>
        <TrainForm onError={setFormError} />
        {formError && (
          <p className="train-error" role="alert">
            {formError}
          </p>
        )}
        {status === "ready" && error && (
          <p className="train-error" role="alert">
            The run stopped: {error}
          </p>
        )}
        <div className="lab-form">
          <button
            type="button"
            data-testid="train-start"
            onClick={() => void run()}
            disabled={status !== "ready"}
          >
            Start training
          </button>
          {running && (
            <button type="button" onClick={stop}>
              Stop
            </button>
          )}
          {Array.from({ length: config.replicas }, (_, i) => i).map((r) => (
            <button key={r} type="button" className="danger" disabled={!running} onClick={() => kill(r)}>
              Kill replica {r}
            </button>
          ))}
          <output
            aria-live="polite"
            className="lab-progress"
            data-testid="train-progress"
            data-steps-per-second={progress?.stepsPerSecond}
            data-all-reduce-share={progress?.allReduceShare}
          >
            {progress &&
              `${progress.finished ? (progress.stopped ? "Stopped" : "Done") : "Training"}: step ${at} / ${total} · ${progress.stepsPerSecond.toFixed(1)} steps/s · all-reduce ${(progress.allReduceShare * 100).toFixed(0)} % of a step`}
          </output>
        </div>
        {progress?.notice && <p className="train-error">{progress.notice}</p>}
        {progress && <TrainChecks progress={progress} diloco={d !== null} />}
        {progress?.q && d && <DilocoQ q={progress.q} every={d.every} />}
        {progress && <TrainChart runs={runs} steps={stepsShown} q={progress.q} />}
      </Panel>
    </div>
  );
}
