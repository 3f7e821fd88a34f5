/** A claim's verdict from the published interval and the model's: apart from the runs, so the page can judge recorded values without loading the engine. */
import type { Claim, ModelValue, Verdict } from "./claimTypes.ts";

/** Within when the model's 95 % interval meets the published one; else how far its mean lies outside. */
export function verdictOf(published: Claim["published"], model: ModelValue): Verdict {
  if (model.mean + model.half >= published.low && model.mean - model.half <= published.high)
    return { kind: "within" };
  return model.mean > published.high
    ? { kind: "off", by: model.mean - published.high, side: "above" }
    : { kind: "off", by: published.low - model.mean, side: "below" };
}
