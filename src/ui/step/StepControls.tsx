import { useId, useMemo } from "react";
import { useStepStore } from "../../state/stepStore.ts";
import { useFittedFrom } from "../../state/traceFit.ts";
import { ALGORITHM_LABELS, type Algorithm, LINK_PRESETS, linkPreset } from "../../step/collectiveCost.ts";
import { MAX_PASTE_CHARS } from "../../step/modelList.ts";
import { computeForElements, PRESET_CATALOG, presetInfo } from "../../step/presetCatalog.ts";
import { STEP_RANGES } from "../../step/stepRanges.ts";
import type { ComputeConfig } from "../../step/stepTimeline.ts";
import type { ModelSource, ModelSummary } from "../../worker/stepApi.ts";
import { NumberField } from "../form/NumberField.tsx";
import { CAP_LADDER, CAP_STOPS, capToSlider, nextCap, sliderToCap } from "./capLadder.ts";
import { SlowRankKnobs } from "./SlowRankKnobs.tsx";
import { mib } from "./units.ts";

const PASTE_HINT = `[{"name": n, "shape": list(p.shape), "dtype": str(p.dtype)}
 for n, p in model.named_parameters()]`;

const SHAPE_HINT = "for n, p in model.named_parameters(): print(n, p.shape)";

/** Past this, a paste is held rather than shown in the text box. */
const LARGE_PASTE_CHARS = 200_000;

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function ModelPicker() {
  const source = useStepStore((s) => s.source);
  const pasteText = useStepStore((s) => s.pasteText);
  const problem = useStepStore((s) => s.problem);
  const pickPreset = useStepStore((s) => s.pickPreset);
  const setPasteText = useStepStore((s) => s.setPasteText);
  const applyPaste = useStepStore((s) => s.applyPaste);
  const choosePaste = useStepStore((s) => s.choosePaste);
  const pasteId = useId();
  const value = source.kind === "preset" ? source.id : "paste";
  const large = pasteText.length > LARGE_PASTE_CHARS;
  // Counting a 15 MB paste's lines takes tens of milliseconds: once per paste, not per render,
  // and not at all past the longest paste accepted (the worker refuses it, saying why).
  const tooLong = pasteText.length > MAX_PASTE_CHARS;
  const lines = useMemo(() => (large && !tooLong ? lineCount(pasteText) : 0), [large, tooLong, pasteText]);
  return (
    <fieldset className="step-group">
      <legend>Model</legend>
      <label className="step-field">
        <span>Parameter list</span>
        <select
          value={value}
          onChange={(e) => (e.target.value === "paste" ? choosePaste() : pickPreset(e.target.value))}
        >
          {PRESET_CATALOG.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="paste">Pasted list</option>
        </select>
      </label>
      <details className="step-paste" open={source.kind === "paste"}>
        <summary>Paste your model's parameters</summary>
        <p className="muted step-small">
          Print this in Python and paste the output (JSON or Python's own print both work):
        </p>
        <pre className="mono step-small step-snippet">{PASTE_HINT}</pre>
        <p className="muted step-small">
          Or the plain printout: <code className="mono">{SHAPE_HINT}</code> (one{" "}
          <code className="mono">name torch.Size([…])</code> a line; float32 unless a line ends with its
          dtype).
        </p>
        <label htmlFor={pasteId} className="visually-hidden">
          Parameter list to paste
        </label>
        {large ? (
          // A list of hundreds of thousands of entries is held, not laid out in a text box (the
          // browser would spend seconds on the text alone); the worker parses it.
          <p className="step-paste-summary mono step-small" data-testid="paste-summary">
            Pasted {pasteText.length.toLocaleString("en-US")} characters
            {tooLong
              ? `: more than the ${MAX_PASTE_CHARS.toLocaleString("en-US")} a list may have.`
              : `, ${lines.toLocaleString("en-US")} lines.`}{" "}
            <button type="button" className="link-button" onClick={() => setPasteText("")}>
              Clear
            </button>
          </p>
        ) : null}
        <textarea
          id={pasteId}
          className="mono"
          rows={6}
          spellCheck={false}
          placeholder='[{"name": "fc.weight", "shape": [1000, 2048], "dtype": "torch.float32"}, …]'
          value={large ? "" : pasteText}
          onPaste={(e) => {
            const text = e.clipboardData.getData("text");
            if (text.length <= LARGE_PASTE_CHARS) return;
            e.preventDefault();
            setPasteText(text);
          }}
          onChange={(e) => setPasteText(e.target.value)}
        />
        <button type="button" className="primary" onClick={applyPaste} disabled={pasteText.trim() === ""}>
          Use pasted list
        </button>
      </details>
      {problem && (
        <p role="alert" className="error-text step-small step-problem">
          {problem.error}
        </p>
      )}
    </fieldset>
  );
}

function BucketKnobs() {
  const capMb = useStepStore((s) => s.config.capMb);
  const firstBucketMb = useStepStore((s) => s.config.firstBucketMb);
  const setCapMb = useStepStore((s) => s.setCapMb);
  const setFirstBucketMb = useStepStore((s) => s.setFirstBucketMb);
  const sliderId = useId();
  return (
    <fieldset className="step-group">
      <legend>Buckets</legend>
      <label htmlFor={sliderId} className="step-slider-label">
        <span>bucket_cap_mb</span>
        <strong className="mono" data-testid="cap-value">
          {mib(capMb)} MiB
        </strong>
      </label>
      <input
        id={sliderId}
        type="range"
        className="step-slider"
        aria-label="bucket_cap_mb (log scale)"
        aria-valuetext={`${mib(capMb)} MiB`}
        min={0}
        max={CAP_STOPS}
        value={capToSlider(capMb)}
        onChange={(e) => setCapMb(sliderToCap(Number(e.target.value)))}
        onKeyDown={(e) => {
          // A cap set off the ladder (by a link or the sweep) sits between two stops: an arrow key
          // goes to the next stop above or below it, never back to the nearest one.
          const dir = ({ ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 } as const)[e.key];
          if (!dir) return;
          e.preventDefault();
          setCapMb(nextCap(capMb, dir));
        }}
      />
      <div className="step-slider-scale muted step-small">
        <span data-testid="cap-min">{mib(CAP_LADDER[0] as number)} MiB</span>
        <button type="button" className="link-button" onClick={() => setCapMb(25)} disabled={capMb === 25}>
          PyTorch default: 25
        </button>
        <span data-testid="cap-max">{mib(CAP_LADDER[CAP_STOPS] as number)} MiB</span>
      </div>
      <NumberField
        className="step-field"
        label="First bucket"
        unit="MiB"
        value={firstBucketMb}
        min={STEP_RANGES.firstBucketMb.min}
        max={STEP_RANGES.firstBucketMb.max}
        onChange={setFirstBucketMb}
        help="dist._DEFAULT_FIRST_BUCKET_BYTES: 1 MiB"
      />
    </fieldset>
  );
}

const sameCompute = (a: ComputeConfig, b: ComputeConfig) =>
  a.forwardMs === b.forwardMs && a.backwardMs === b.backwardMs && a.optimizerMs === b.optimizerMs;

/** Where the compute times on screen come from: a preset's figures, an estimate from the list's size, or a person. */
export function computeOrigin(
  source: ModelSource,
  model: ModelSummary | null,
  compute: ComputeConfig,
): string {
  const presetId = source.kind === "preset" ? source.id : model?.preset;
  if (presetId) {
    const p = presetInfo(presetId);
    if (sameCompute(compute, p.compute))
      return source.kind === "preset"
        ? `${p.label}'s times: ${p.id.startsWith("llama3") ? "2·P·8,192 tokens at 400 TFLOP/s per GPU" : "plausible per-GPU figures, not measurements"}. Set your own here.`
        : `${p.label}'s times: your pasted list is that preset's list, so it gets the same step. Set your own here.`;
  }
  if (model && source.kind !== "preset" && sameCompute(compute, computeForElements(model.elements)))
    return `Estimated from the list's ${model.elements.toLocaleString("en-US")} elements as for an LLM (forward 2·P·8,192 tokens at 400 TFLOP/s, backward twice that). Set your own here.`;
  return "Set here (by you, or by the link you opened).";
}

function ComputeKnobs() {
  const compute = useStepStore((s) => s.config.compute);
  const setCompute = useStepStore((s) => s.setCompute);
  const source = useStepStore((s) => s.source);
  const model = useStepStore((s) => s.model);
  return (
    <fieldset className="step-group">
      <legend>Compute per step (one GPU)</legend>
      <p className="muted step-small" data-testid="compute-origin">
        {computeOrigin(source, model, compute)}
      </p>
      <NumberField
        className="step-field"
        min={STEP_RANGES.computeMs.min}
        max={STEP_RANGES.computeMs.max}
        label="Forward"
        unit="ms"
        value={compute.forwardMs}
        onChange={(forwardMs) => setCompute({ forwardMs })}
      />
      <NumberField
        className="step-field"
        min={STEP_RANGES.computeMs.min}
        max={STEP_RANGES.computeMs.max}
        label="Backward"
        unit="ms"
        value={compute.backwardMs}
        onChange={(backwardMs) => setCompute({ backwardMs })}
        help="Shared among the parameters in proportion to their element counts"
      />
      <NumberField
        className="step-field"
        min={STEP_RANGES.computeMs.min}
        max={STEP_RANGES.computeMs.max}
        label="Optimizer"
        unit="ms"
        value={compute.optimizerMs}
        onChange={(optimizerMs) => setCompute({ optimizerMs })}
      />
    </fieldset>
  );
}

function LinkKnobs({ which, label }: { which: "intraLink" | "interLink"; label: string }) {
  const link = useStepStore((s) => s.config.parallel[which]);
  const setLink = useStepStore((s) => s.setLink);
  const preset = linkPreset(link.id);
  const edited = preset.alpha !== link.alpha || preset.bandwidth !== link.bandwidth;
  const fittedFrom = useFittedFrom(which, link);
  return (
    <div className="step-link">
      <label className="step-field">
        <span>{label}</span>
        <select
          value={link.id}
          onChange={(e) => setLink(which, { ...linkPreset(e.target.value) })}
          title={preset.source}
        >
          {LINK_PRESETS.map((l) => (
            <option key={l.id} value={l.id}>
              {l.label}
            </option>
          ))}
        </select>
        {edited && (
          // Beside the menu, not inside it: a narrow menu clipped "(edited)" off the option.
          <span className="step-link-state" data-testid={`${which}-state`}>
            {fittedFrom !== null
              ? `fitted to ${fittedFrom.slice(0, 3).join(", ")}${fittedFrom.length > 3 ? ` and ${fittedFrom.length - 3} more` : ""}`
              : "edited"}
          </span>
        )}
      </label>
      <div className="step-pair">
        <NumberField
          className="step-field"
          // The table holds seconds; the knob shows µs.
          min={STEP_RANGES.alphaSeconds.min * 1e6}
          max={STEP_RANGES.alphaSeconds.max * 1e6}
          label="α"
          unit="µs"
          value={Number((link.alpha * 1e6).toPrecision(6))}
          onChange={(v) => setLink(which, { alpha: v / 1e6 })}
          help="Latency per algorithm step"
        />
        <NumberField
          className="step-field"
          label="B"
          unit="GB/s"
          min={STEP_RANGES.bandwidthBytesPerSecond.min / 1e9}
          max={STEP_RANGES.bandwidthBytesPerSecond.max / 1e9}
          value={Number((link.bandwidth / 1e9).toPrecision(6))}
          onChange={(v) => setLink(which, { bandwidth: v * 1e9 })}
          help="Bandwidth per rank (bus bandwidth)"
        />
      </div>
    </div>
  );
}

function ParallelKnobs() {
  const p = useStepStore((s) => s.config.parallel);
  const setParallel = useStepStore((s) => s.setParallel);
  const hsdp = p.mode === "hsdp";
  return (
    <fieldset className="step-group">
      <legend>Data parallelism</legend>
      <div className="step-segmented" role="radiogroup" aria-label="Mode">
        {(["ddp", "hsdp"] as const).map((m) => (
          <label key={m} className={p.mode === m ? "active" : ""}>
            <input
              type="radio"
              name="step-mode"
              checked={p.mode === m}
              onChange={() => setParallel({ mode: m })}
            />
            {m === "ddp" ? "DDP" : "HSDP"}
          </label>
        ))}
      </div>
      <p className="muted step-small step-mode-note">
        {hsdp
          ? "Reduce-scatter inside each replica, then all-reduce of the shard across replicas (FTAR)."
          : "One flat all-reduce over every GPU; across nodes the ring runs at the slower link."}
      </p>
      <div className="step-pair">
        <NumberField
          className="step-field"
          label={hsdp ? "GPUs per replica" : "GPUs per node"}
          value={p.gpusPerReplica}
          min={STEP_RANGES.gpusPerReplica.min}
          max={STEP_RANGES.gpusPerReplica.max}
          integer
          onChange={(v) => setParallel({ gpusPerReplica: Math.round(v) })}
        />
        <NumberField
          className="step-field"
          label={hsdp ? "Replicas R" : "Nodes"}
          value={p.replicas}
          min={STEP_RANGES.replicas.min}
          max={STEP_RANGES.replicas.max}
          integer
          onChange={(v) => setParallel({ replicas: Math.round(v) })}
        />
      </div>
      <label
        className="step-check"
        title={hsdp ? "" : "Synchronous DDP cannot step without a rank: the whole job restarts."}
      >
        <input
          type="checkbox"
          checked={hsdp && p.missingReplica}
          disabled={!hsdp || p.replicas < 2}
          onChange={(e) => setParallel({ missingReplica: e.target.checked })}
        />
        One replica missing (FT-HSDP steps on with R−1)
      </label>
      <label className="step-field">
        <span>Algorithm</span>
        <select value={p.algorithm} onChange={(e) => setParallel({ algorithm: e.target.value as Algorithm })}>
          {(Object.keys(ALGORITHM_LABELS) as Algorithm[]).map((a) => (
            <option key={a} value={a}>
              {ALGORITHM_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
      <LinkKnobs which="intraLink" label={hsdp ? "Link inside a replica" : "Link inside a node"} />
      <LinkKnobs which="interLink" label={hsdp ? "Link across replicas" : "Link across nodes"} />
    </fieldset>
  );
}

export function StepControls() {
  return (
    <aside className="step-controls panel" aria-label="Step knobs">
      <ModelPicker />
      <BucketKnobs />
      <ParallelKnobs />
      <ComputeKnobs />
      <SlowRankKnobs />
    </aside>
  );
}
