/** Chapter 8: hand the reader the explorer, opened on the story's scenario. */
import { presetById } from "../../../sim/presets.ts";
import { DEFAULT_SCENARIO, parseScenario, type ScenarioInput } from "../../../sim/scenario/index.ts";
import { appStore } from "../../../state/store.ts";
import { storyRun } from "../../../state/storyData.ts";
import { FAILURE_LOG_HEADING } from "../../cluster/failureLogHeading.ts";
import { pct } from "../../format.ts";
import { Term } from "../../glossary/Term.tsx";
import { Figure, Prose, Sources, SRC, WhenLoaded } from "../parts.tsx";
import { usePromise } from "../usePromise.ts";

/** The story's scenario: the paper's cluster and recovery times, with random arrivals (the explorer's default). */
export const YOUR_CLUSTER_SCENARIO: ScenarioInput = { name: DEFAULT_SCENARIO.name };

function openCluster(input: ScenarioInput): void {
  const { setScenario, setTab } = appStore.getState();
  setScenario(parseScenario(input));
  setTab("cluster");
}

/** The Cluster view on one of the presets (its source is shown there, as when picked from the list). */
function openPreset(id: string): void {
  const p = presetById(id);
  if (p) openCluster(p.scenario);
}

/** The Cluster view, scrolled to its Failure log panel once it is drawn (a second at most). */
function openFailureLog(): void {
  openCluster(YOUR_CLUSTER_SCENARIO);
  let frames = 60;
  const look = () => {
    const h = document.getElementById(FAILURE_LOG_HEADING);
    if (h) h.scrollIntoView({ block: "start" });
    else if (frames-- > 0) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

export function YourClusterChapter() {
  const loaded = usePromise("your-cluster", () => storyRun(YOUR_CLUSTER_SCENARIO, false));
  return (
    <>
      <Prose>
        <p>
          Now it is your cluster. The Cluster view runs the strategies you pick (synchronous training and
          FT-HSDP to start, in-memory checkpoints and hot spares beside them) on the same failures for a
          month, with every knob in reach: size, failure rate, how failures are detected, what each recovery
          costs, how many{" "}
          <span className="term-tail">
            <Term id="replica">replicas</Term>.
          </span>{" "}
          It shows the <Term id="ettr" /> of one run, each strategy&apos;s Monte Carlo mean with its ±95 %
          interval (runs are added until it is within the precision you set, ±0.5 point to start) and its{" "}
          <Term id="p5p95" /> band, where the lost time goes, the timelines, the failure log, what-if sweeps
          and a tornado of which knob matters most. Its address is always a link to exactly what is on screen.
        </p>
        <p data-testid="story-failure-log">
          Have a log of your own fleet's failures? The Cluster view's{" "}
          <button
            type="button"
            className="link-button"
            onClick={openFailureLog}
            data-testid="open-failure-log"
          >
            Failure log panel
          </button>{" "}
          (the last of that view) fits the model to it (how often, how bursty, which causes, how long repairs
          take) and puts the fit on the scenario.
        </p>
        <p data-testid="story-diloco">
          One choice the strategies above leave open: keeping every step synchronous across replicas. DiLoCo
          lets each replica take H steps alone and average with the others once per round, so the link between
          replicas carries one sync per H steps and a failure costs only the struck replica its round; the
          price is convergence (q, which Live training measures). Weigh it against FT-HSDP on{" "}
          <button
            type="button"
            className="link-button"
            onClick={() => openPreset("diloco-four-sites")}
            data-testid="open-diloco-four-sites"
          >
            four datacenters on a slow link
          </button>{" "}
          or with{" "}
          <button
            type="button"
            className="link-button"
            onClick={() => openPreset("diloco-failures-minutes")}
            data-testid="open-diloco-failures-minutes"
          >
            failures every few minutes
          </button>
          .
        </p>
        <p data-testid="story-papers">
          How far to trust it? The <a href="#v=papers">Papers</a> view puts published figures (the FT-HSDP
          paper&apos;s, Llama 3&apos;s, other operators&apos;) beside the model&apos;s value on the
          assumptions each states, says which agree, and why the others do not.
        </p>
      </Prose>
      <Figure label="The story's scenario">
        <WhenLoaded loaded={loaded}>
          {(run) => (
            <div className="story-open">
              <p>
                The paper's cluster, failures at random: <strong>{pct(run.synchronous.ettr)}</strong>{" "}
                synchronous, <strong>{pct(run.ftHsdp.ettr)}</strong> FT-HSDP (seed {run.scenario.seed}).
              </p>
              <button
                type="button"
                className="primary story-cta"
                data-testid="open-cluster"
                onClick={() => openCluster(YOUR_CLUSTER_SCENARIO)}
              >
                Open the Cluster view on this scenario
              </button>
            </div>
          )}
        </WhenLoaded>
      </Figure>
      <Sources items={[SRC.ftHsdp, SRC.ftHsdpReported]} />
    </>
  );
}
