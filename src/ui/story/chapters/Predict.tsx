/**
 * Chapter 4: predict, then look. The reader guesses FT-HSDP's ETTR for three changed clusters
 * before the engine's answer is shown. The answers are computed on arrival but kept hidden until
 * the reader commits to a guess.
 */
import { useId, useState } from "react";
import { presetById } from "../../../sim/presets.ts";
import type { ScenarioInput } from "../../../sim/scenario/index.ts";
import { type StoryMonteCarlo, storyMonteCarlo } from "../../../state/storyData.ts";
import { pct } from "../../format.ts";
import { Term } from "../../glossary/Term.tsx";
import { Figure, Prose, Sources, SRC, WhenLoaded } from "../parts.tsx";
import { usePromise } from "../usePromise.ts";

const SEEDS = 20;

interface Question {
  id: string;
  change: string;
  scenario: ScenarioInput;
}

export const QUESTIONS: readonly Question[] = [
  {
    id: "replicas",
    change: "Twice as many replicas: 24 of 512 hosts each, instead of 12 of 1,024.",
    scenario: { cluster: { replicas: 24 } },
  },
  {
    id: "watchdog",
    change: "30 % of failures hang instead of dying, found only by the 600 s NCCL watchdog.",
    scenario: presetById("hang-watchdog")?.scenario ?? {},
  },
  {
    id: "c4",
    change:
      "The same hangs, found in 30 s by comparing collective timings across ranks (C4-style): sooner than the 60 s it takes to notice a crashed process.",
    scenario: presetById("hang-c4")?.scenario ?? {},
  },
];

interface Answers {
  base: StoryMonteCarlo;
  answers: StoryMonteCarlo[];
}

async function compute(): Promise<Answers> {
  const base = await storyMonteCarlo({}, SEEDS);
  const answers: StoryMonteCarlo[] = [];
  for (const q of QUESTIONS) answers.push(await storyMonteCarlo(q.scenario, SEEDS));
  return { base, answers };
}

function Guess({ q, answer, base }: { q: Question; answer: StoryMonteCarlo; base: StoryMonteCarlo }) {
  const id = useId();
  const [guess, setGuess] = useState(Math.round(base.ftHsdp.ettr.mean * 100));
  const [shown, setShown] = useState(false);
  const truth = answer.ftHsdp.ettr.mean;
  return (
    <li className="story-question" data-testid={`question-${q.id}`}>
      <p>{q.change}</p>
      <div className="story-guess">
        <label htmlFor={id}>Your guess for FT-HSDP's ETTR</label>
        <input
          id={id}
          type="range"
          min={0}
          max={100}
          step={1}
          value={guess}
          disabled={shown}
          onChange={(e) => setGuess(Number(e.target.value))}
        />
        <output htmlFor={id} className="mono">
          {guess}%
        </output>
        <button type="button" onClick={() => setShown(true)} disabled={shown} data-testid={`reveal-${q.id}`}>
          Reveal
        </button>
      </div>
      {shown ? (
        <p className="story-answer" data-testid={`answer-${q.id}`}>
          FT-HSDP: <strong>{pct(truth)}</strong>, synchronous:{" "}
          <strong>{pct(answer.synchronous.ettr.mean)}</strong> (was {pct(base.ftHsdp.ettr.mean)} and{" "}
          {pct(base.synchronous.ettr.mean)}). Your guess was {Math.abs(guess - truth * 100).toFixed(1)} points{" "}
          {guess > truth * 100 ? "high" : guess < truth * 100 ? "low" : "off"}.
        </p>
      ) : null}
    </li>
  );
}

export function PredictChapter() {
  const loaded = usePromise("predict", compute);
  return (
    <>
      <Prose lead>
        <p data-testid="predict-lead">
          Before you look, guess. The cluster is the paper's: 98,304 GPUs, a failure every 18 minutes at
          random, FT-HSDP at about 82 %. Each change below moves one thing. Slide to your guess, then reveal
          what the engine computes (mean of {SEEDS} seeds).
        </p>
      </Prose>
      <Prose>
        <p>
          Think about what each change does to the two kinds of cost: time when <em>everyone</em> waits, and
          time when one <Term id="replica" /> is missing. A <Term id="hang">hang</Term> left to the watchdog
          is the worst kind of failure: nothing crashes, so nothing notices; found by a faster check, it can
          cost less than a crash.
        </p>
      </Prose>
      <Figure label="Three predictions">
        <WhenLoaded loaded={loaded}>
          {(a) => (
            <ol className="story-questions">
              {QUESTIONS.map((q, i) => (
                <Guess key={q.id} q={q} answer={a.answers[i] as StoryMonteCarlo} base={a.base} />
              ))}
            </ol>
          )}
        </WhenLoaded>
      </Figure>
      <Sources
        items={[
          SRC.ftHsdpReported,
          SRC.watchdog,
          SRC.c4,
          "The 30 % hang share is our choice, for illustration.",
        ]}
      />
    </>
  );
}
