/**
 * The Cluster view's "Where the time goes": the badput bars of this seed's run for every policy
 * the run selected, and the price per GPU-hour that costs the lost time (a display setting in the
 * link as `gph=`, state/gpuPrice.ts).
 */
import {
  DEFAULT_GPU_PRICE,
  GPU_PRICE_ALLOWED,
  gpuPriceStore,
  MAX_GPU_PRICE,
  parseGpuPrice,
  useGpuPrice,
} from "../../state/gpuPrice.ts";
import { NumberField } from "../form/NumberField.tsx";
import { count } from "../format.ts";
import { useShownRun } from "../useShownRun.ts";
import { BadputBars } from "./BadputBars.tsx";
import { strategyRows } from "./badputWords.ts";

function PriceField() {
  const price = useGpuPrice();
  return (
    <NumberField
      label="Price per GPU-hour"
      unit="$"
      help={`What a GPU-hour costs you, to put the lost hours in money: ${GPU_PRICE_ALLOWED}. The default $2 is a placeholder, not a sourced figure.`}
      className="knob badput-price"
      value={price}
      min={0}
      max={MAX_GPU_PRICE}
      testId="gpu-price"
      onChange={(v) => {
        const parsed = parseGpuPrice(String(v));
        if (typeof parsed === "string") return [parsed];
        gpuPriceStore.setState({ price: parsed });
        return null;
      }}
    />
  );
}

export function BadputPanel() {
  const run = useShownRun();
  const price = useGpuPrice();
  if (!run) return null;
  const s = run.scenario;
  const rows = strategyRows(run);
  return (
    <article className="badput-panel" aria-label="Where the time goes">
      <div className="badput-head">
        <h3>Where the time goes</h3>
        <PriceField />
      </div>
      <p className="muted small">
        Wall time of seed {s.seed}&apos;s run, split into useful training and what was lost; lost GPU-hours =
        (1 − ETTR) × {count(s.cluster.gpus)} GPUs × {count(s.training.days * 24)} h, costed at $
        {count(price, 2)} per GPU-hour{price === DEFAULT_GPU_PRICE ? " (a placeholder: set your own)" : ""}.
      </p>
      <BadputBars rows={rows} gpus={s.cluster.gpus} days={s.training.days} price={price} />
    </article>
  );
}
