import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { encodeLinkPayload, encodeScenarioHash } from "../link/scenarioLink.ts";
import { closedForms } from "../sim/closedForms/closedForms.ts";
import { runScenario } from "../sim/engine.ts";
import { SUMMARIZED_METRICS } from "../sim/monteCarlo/monteCarlo.ts";
import { DEFAULT_SCENARIO, derived, parseScenario } from "../sim/scenario/index.ts";
import { BADPUT_CATEGORIES } from "../sim/types.ts";
import { APP_URL, simCommand } from "./simCommand.ts";

/** The real entry point in a child process, as `npm run sim` runs it: the bundled CLI (built when a source changed). */
function sim(...args: string[]) {
  const entry = join(import.meta.dirname, "..", "..", "scripts", "sim.mjs");
  const r = spawnSync(process.execPath, [entry, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), "sim-cli-"));
function tempFile(name: string, text: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const fifo = join(dir, "fifo");
execFileSync("mkfifo", [fifo]);

const small = { name: "small", seed: 7, cluster: { gpus: 4096, replicas: 8 }, training: { days: 2 } };
const smallFile = tempFile("small.json", JSON.stringify(small));
/** The largest the validator accepts: a million expected failures per run. */
const heavy = {
  cluster: { gpus: 1_000_000, gpusPerHost: 1, replicas: 1000 },
  training: { days: 100 },
  failures: { perHostDay: 0.01 },
};

describe("npm run sim (child process)", { timeout: 60_000 }, () => {
  it("--json prints one object: the completed scenario, the seeds, both policies' summaries, the closed forms", () => {
    const r = sim(smallFile, "--seeds", "5", "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(["scenario", "seeds", "synchronous", "ftHsdp", "closedForm"]);
    expect(out.scenario).toEqual(parseScenario(small));
    expect(out.seeds).toBe(5);
    for (const policy of [out.synchronous, out.ftHsdp]) {
      expect(Object.keys(policy).sort()).toEqual(["badput", "causes", ...SUMMARIZED_METRICS].sort());
      for (const m of SUMMARIZED_METRICS) expect(Object.keys(policy[m])).toEqual(["mean", "p5", "p95"]);
      expect(Object.keys(policy.badput)).toEqual([...BADPUT_CATEGORIES]);
      for (const b of BADPUT_CATEGORIES) expect(Object.keys(policy.badput[b])).toEqual(["mean", "p5", "p95"]);
    }
    expect(Object.keys(out.closedForm)).toEqual([
      "fixed",
      "poissonSyncNoRollback",
      "metaFirstOrder",
      "syncRenewal",
      "ftFirstOrder",
      "metaApproximation",
      "fixedArrivals",
      "poissonNoRollback",
      "policies",
      "deprecated",
    ]);
    // Version 1's keys keep their numbers (old readers), marked deprecated with the key to read.
    expect(out.closedForm.fixed).toEqual(closedForms(parseScenario(small)).fixed);
    expect(out.closedForm.deprecated.fixed).toMatch(/^deprecated: .*ignores rollback.*Read fixedArrivals\.$/);
    expect(out.closedForm.deprecated.metaFirstOrder).toMatch(/Read metaApproximation\.$/);
    // Where a form does not apply its value is null and its note says why (small.json is Poisson).
    expect(out.closedForm.fixedArrivals.synchronous.value).toBeNull();
    expect(out.closedForm.fixedArrivals.synchronous.note).toMatch(/Poisson arrivals/);
    expect(Object.keys(out.closedForm.policies)).toEqual(["synchronous", "ftHsdp"]);
  });

  it("a share link and the scenario file it came from give the same output, byte for byte", () => {
    const link = sim(smallFile, "--link");
    expect(link.code).toBe(0);
    expect(link.stdout.startsWith(`${APP_URL}#s=2.`)).toBe(true);
    const fromLink = sim(link.stdout.trim(), "--seeds", "3", "--json");
    const fromFile = sim(smallFile, "--seeds", "3", "--json");
    expect(fromLink.code).toBe(0);
    expect(fromLink.stdout).toBe(fromFile.stdout);
  });

  it("the bundled command's worker threads print the numbers of one thread in-process, byte for byte", async () => {
    // About 10,000 failures a run: slices of 4 runs, 25 of them for 100 seeds (~0.4 s), so the
    // workers (bundled, not TypeScript) start in time to take a share of them.
    const busy = tempFile(
      "busy.json",
      JSON.stringify({ ...small, failures: { perHostDay: 10, hangFraction: 0.2 } }),
    );
    const args = [busy, "--seeds", "100", "--json"];
    const oneThread = (await simCommand([...args, "--threads", "1"])).stdout;
    for (const threads of ["2", "3"]) {
      const r = sim(...args, "--threads", threads);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(oneThread);
    }
  });

  it("bad input: one line on stderr, nothing on stdout, exit status 2", () => {
    const r = sim(join(dir, "missing.json"));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^sim: cannot read scenario file .*missing\.json: no such file\n$/);
  });
});

describe("simCommand", () => {
  it("without --seeds runs the scenario's own seed: the same numbers as the app's run", async () => {
    const out = JSON.parse((await simCommand([smallFile, "--json"])).stdout);
    const run = runScenario(parseScenario(small));
    expect(out.seeds).toBe(1);
    expect(out.synchronous.ettr.mean).toBe(run.synchronous!.ettr);
    expect(out.ftHsdp.ettr.mean).toBe(run.ftHsdp!.ettr);
  });

  it("a link without a scenario means the defaults", async () => {
    const out = JSON.parse((await simCommand([APP_URL, "--json", "--seeds=1"])).stdout);
    expect(out.scenario).toEqual(DEFAULT_SCENARIO);
  });

  it("--link prints a link that decodes to the same scenario, from a file or a link", async () => {
    const fromFile = (await simCommand([smallFile, "--link"])).stdout;
    expect(fromFile).toBe(`${APP_URL}${encodeScenarioHash(parseScenario(small))}\n`);
    expect((await simCommand([fromFile.trim(), "--link"])).stdout).toBe(fromFile);
  });

  it("--json: one key per selected policy in display order, badput as {mean, p5, p95}, and each one's closed form", async () => {
    const four = { ...small, policies: ["hotSpare", "synchronous", "inMemory", "ftHsdp"] };
    const file = tempFile("four.json", JSON.stringify(four));
    const out = JSON.parse((await simCommand([file, "--seeds", "3", "--json"])).stdout);
    expect(Object.keys(out)).toEqual([
      "scenario",
      "seeds",
      "hotSpare",
      "synchronous",
      "inMemory",
      "ftHsdp",
      "closedForm",
    ]);
    const s = parseScenario(four);
    const run = runScenario(s);
    for (const key of s.policies) {
      expect(Object.keys(out[key].badput)).toEqual([...BADPUT_CATEGORIES]);
      for (const b of BADPUT_CATEGORIES)
        expect(Object.keys(out[key].badput[b])).toEqual(["mean", "p5", "p95"]);
      // Seed 0 of the Monte Carlo is the scenario's own run.
      expect(out[key].ettr.p5).toBeLessThanOrEqual(run[key]!.ettr);
      expect(out[key].ettr.p95).toBeGreaterThanOrEqual(run[key]!.ettr);
    }
    expect(Object.keys(out.closedForm.policies)).toEqual(s.policies);
    for (const key of s.policies)
      expect(Object.keys(out.closedForm.policies[key])).toEqual(["value", "note"]);
    // The table shows the same policies, in the same order, with where the time went.
    const table = (await simCommand([file, "--seeds", "3"])).stdout;
    expect(table).toMatch(/^\s+Hot spares\s+Synchronous\s+In-memory checkpoints\s+FT-HSDP$/m);
    expect(table).toMatch(/^lost: rolled back\s/m);
  });

  it("prints a table of both policies by default", async () => {
    const { code, stdout } = await simCommand([smallFile, "--seeds", "4"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ETTR\s+\d+\.\d% \[\d+\.\d%, \d+\.\d%\]\s+\d+\.\d% \[/m);
    expect(stdout).toContain("4 seeds from 7");
  });

  const goodLink = encodeScenarioHash(parseScenario(small));
  const badInputs: [string, string[], RegExp][] = [
    ["a missing file", [join(dir, "nope.json")], /cannot read scenario file .*nope\.json: no such file/],
    [
      "a directory",
      [dir],
      /cannot read scenario file .*: it is a directory; only regular files up to 1 MiB are read/,
    ],
    [
      "a device (/dev/zero grew to 3 GB)",
      ["/dev/zero"],
      /cannot read scenario file \/dev\/zero: it is a device; only regular files up to 1 MiB/,
    ],
    [
      "a FIFO (blocked forever)",
      [fifo],
      /cannot read scenario file .*fifo: it is a FIFO \(named pipe\); only regular files/,
    ],
    [
      "a file over 1 MiB",
      [tempFile("big.json", `{"name": "${"x".repeat(1024 * 1024)}"}`)],
      /cannot read scenario file .*big\.json: it is larger than 1 MiB; only regular files up to 1 MiB are read/,
    ],
    ["invalid JSON", [tempFile("bad.json", "{ cluster: ")], /bad\.json is not valid JSON/],
    ["not an object", [tempFile("array.json", "[1, 2]")], /scenario: got an array; must be a JSON object/],
    [
      "an unknown field",
      [tempFile("unknown.json", '{"cluster": {"gpu": 8}}')],
      /cluster\.gpu: unknown field/,
    ],
    [
      "an out-of-range value",
      [tempFile("range.json", '{"training": {"days": 400}}')],
      /training\.days: got 400; must be a number in \[0\.001, 365\]/,
    ],
    [
      "a subnormal checkpoint interval (was accepted and printed null)",
      [tempFile("subnormal.json", '{"sync": {"checkpointMinutes": 1e-320}}')],
      /sync\.checkpointMinutes: got 1e-320; must be 0 or a number in \[0\.01, 10,080\]/,
    ],
    [
      "hosts not divisible by replicas",
      [tempFile("split.json", '{"cluster": {"replicas": 7}}')],
      /cluster\.replicas: 12,288 hosts do not split into 7 equal replicas/,
    ],
    [
      "a 10^12-GPU cluster",
      [tempFile("huge.json", '{"cluster": {"gpus": 1000000000000}}')],
      /cluster\.gpus: got 1000000000000; must be an integer in \[1, 1,000,000\]/,
    ],
    ["a truncated share link", [goodLink.slice(0, -6)], /bad share link: .*could not be decoded/],
    ["a tampered share link", [`#s=1.${"A".repeat(30)}`], /bad share link: .*could not be decoded/],
    ["an oversized share link", [`${APP_URL}#s=1.${"z".repeat(7000)}`], /bad share link: .*at most 6144/],
    [
      "a share link to an invalid scenario",
      [`${APP_URL}#s=${encodeLinkPayload({ cluster: { gpus: 1e12 } })}`],
      /bad share link: .*cluster\.gpus: got 1000000000000; must be an integer in \[1, 1,000,000\]/,
    ],
    [
      "a share link with hosts not divisible by replicas",
      [`#s=${encodeLinkPayload({ cluster: { replicas: 7 } })}`],
      /bad share link: .*cluster\.replicas: 12,288 hosts do not split into 7 equal replicas/,
    ],
    ["a share link of another format", ["#s=9.abc"], /bad share link: .*format/],
    // A scenario the CLI cannot see is refused by its key, not run as the defaults.
    [
      "a scenario in the query",
      [`${APP_URL}?s=${goodLink.split("#s=")[1]}`],
      /bad share link: .*"s=" in its query/,
    ],
    [
      "a scenario under #S=",
      [`${APP_URL}#S=${goodLink.split("#s=")[1]}`],
      /bad share link: .*"S=", which the explorer does not use/,
    ],
    ["a scenario under #%73=", [`${APP_URL}#%73=${goodLink.split("#s=")[1]}`], /bad share link: .*"%73="/],
    ["a scenario under #sx=", [`${APP_URL}#sx=${goodLink.split("#s=")[1]}`], /bad share link: .*"sx="/],
    [
      "a piece with no =",
      [`${APP_URL}#v=cluster&cluster`],
      /bad share link: .*"cluster", which is not key=value/,
    ],
    [
      "a file of invalid UTF-8",
      [
        tempFile(
          "latin1.json",
          Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
        ),
      ],
      /not UTF-8 \(byte 9, 0xe9/,
    ],
    ["an unknown flag", [smallFile, "--fast"], /unknown option --fast/],
    ["--seeds 0", [smallFile, "--seeds", "0"], /--seeds must be an integer in \[1, 100,000\], got "0"/],
    [
      "--seeds past the budget (two days without output before)",
      [tempFile("heavy.json", JSON.stringify(heavy)), "--seeds", "100000"],
      /--seeds 100,000 × 1,000,000 expected failures per run = 100,000,000,000 failures to simulate, past the budget of 1,000,000,000; ask for at most 1,000 seeds, or add --no-budget to run it anyway/,
    ],
    ["--threads 0", [smallFile, "--threads", "0"], /--threads must be an integer in \[1, 256\], got "0"/],
    ["--seeds too many", [smallFile, "--seeds=100001"], /--seeds must be an integer in \[1, 100,000\]/],
    ["--seeds not a number", [smallFile, "--seeds", "1e3"], /--seeds must be an integer/],
    ["--seeds without a value", [smallFile, "--seeds"], /--seeds must be an integer .* got nothing/],
    ["no scenario", ["--json"], /no scenario given; usage/],
    ["two scenarios", [smallFile, smallFile], /one scenario expected/],
  ];
  it.each(badInputs)("%s: one line naming the problem, exit 2", async (_, args, message) => {
    const r = await simCommand(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^sim: [^\n]+\n$/);
    expect(r.stderr).toMatch(message);
  });
});

describe("simCommand: bounded inputs", () => {
  it("reads a scenario file that starts with a UTF-8 byte-order mark", async () => {
    const r = await simCommand([tempFile("bom.json", `\uFEFF${JSON.stringify(small)}`), "--json"]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout).scenario).toEqual(parseScenario(small));
  });

  const tiny = tempFile("tiny.json", JSON.stringify({ ...small, training: { days: 0.01 } }));
  const perRun = Math.max(1, derived(parseScenario({ ...small, training: { days: 0.01 } })).expectedFailures);

  it("--seeds past the budget is refused with the figure; --no-budget runs it anyway", async () => {
    const budgetFailures = 3 * perRun;
    const refused = await simCommand([tiny, "--seeds", "4"], { budgetFailures });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /--seeds 4 × .* failures to simulate, past the budget of .*; ask for at most 3 seeds, or add --no-budget/,
    );
    const run = await simCommand([tiny, "--seeds", "4", "--no-budget", "--json"], { budgetFailures });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).seeds).toBe(4);
    expect((await simCommand([tiny, "--seeds", "3"], { budgetFailures })).code).toBe(0);
  });

  it("writes progress to stderr once the Monte Carlo has run a second, then at most once a second", async () => {
    let t = 0;
    const lines: string[] = [];
    // A clock that moves 0.3 s each time it is read: seconds pass only as seeds are done.
    const r = await simCommand([tiny, "--seeds", "20"], {
      now: () => (t += 300),
      progress: (l) => lines.push(l),
    });
    expect(r.code).toBe(0);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines[0]).toMatch(/^sim: \d+ of 20 seeds \(\d+ %\), 1 s so far, about \d+ s left\n$/);
    const quiet: string[] = [];
    await simCommand([tiny, "--seeds", "20"], { now: () => 0, progress: (l) => quiet.push(l) });
    expect(quiet).toEqual([]);
  });

  it("the same seeds give the same output on 1, 2 or 3 threads", async () => {
    const outputs = await Promise.all(
      ["1", "2", "3"].map(
        async (n) => (await simCommand([tiny, "--seeds", "30", "--json", "--threads", n])).stdout,
      ),
    );
    expect(outputs[1]).toBe(outputs[0]);
    expect(outputs[2]).toBe(outputs[0]);
  });
});

describe("a key given twice is refused by name, never decided silently", () => {
  it("in a scenario file: a field, the seed, the name, a cause's scope", async () => {
    for (const [text, named] of [
      ['{"cluster":{"replicas":-5,"replicas":16}}', /"replicas" is given twice in cluster/],
      ['{"seed":1,"seed":2}', /"seed" is given twice/],
      ['{"name":"a","name":"b"}', /"name" is given twice/],
      [
        '{"failures":{"causes":[{"name":"x","share":1,"scope":"job","scope":"host"}]}}',
        /"scope" is given twice in failures\.causes\[0\]/,
      ],
    ] as const) {
      const r = await simCommand([tempFile("twice.json", text)]);
      expect(r.code, text).toBe(2);
      expect(r.stderr, text).toMatch(named);
    }
  });

  it("in a share link: #v=cluster&s=A&s=B opens neither", async () => {
    const a = encodeScenarioHash(parseScenario({ cluster: { replicas: 16 } })).slice(1);
    const b = encodeScenarioHash(parseScenario({ cluster: { replicas: 24 } })).slice(1);
    const r = await simCommand([`${APP_URL}#v=cluster&${a}&${b}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"s=" more than once/);
  });
});
