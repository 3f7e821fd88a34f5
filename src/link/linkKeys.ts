/**
 * Every key an address may hold, in the order it is written, with what it carries. The one
 * list of keys: a view adds its own here, and registerAddressPart (src/state/address.ts)
 * refuses a key not listed. In src/link so the CLI, which reads share links, knows them too.
 */
export const ADDRESS_KEYS = {
  v: "the view",
  s: "the scenario",
  w: "the timeline's time window",
  fl: "the failure log's filter (the kinds of row it lists)",
  st: "the step settings",
  lab: "the lab settings",
  lres: "the lab's results table",
  lfd: "the lab's fault demo was shown (1: run it again on open)",
  t: "the live training settings",
  tm: "the live training mode",
  tr: "a finished training run (1: train it again on open)",
  ch: "the story's chapter",
  bk: "the story's bucket size (chapter 5)",
  hide: "the controls a classroom link hides",
  sw: "the what-if sweep",
  tn: "the tornado (which knob matters most)",
  gph: "the price per GPU-hour the results' lost GPU-hours are costed at",
  mcp: "the Monte Carlo's precision (± points of ETTR)",
  mcn: "the Monte Carlo's cap on runs",
  base: "the pinned baseline scenario",
} as const satisfies Record<string, string>;
