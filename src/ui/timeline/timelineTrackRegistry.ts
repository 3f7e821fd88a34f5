/**
 * The timeline's track types, in stacking order: the axis, then each selected policy's lanes (one
 * group per policy, in display order), then the slow hosts (§6) and the spare-pool chart. A new kind of track is one file
 * (a TrackType, see timelineTrack.ts) and one line here, or a registerTimelineTrack call.
 *
 * A policy's lanes come from the kind of its recording, not its key: registerPolicyTracks gives a
 * recording kind its track types (a whole-job lane for "wholeJob"; the job lane, replica lanes and
 * rack marks and slow-host shade for "replicas"), so a new policy whose recording has a known kind is drawn with no
 * other change, and a new kind brings its own track types the same way.
 */

import { policyOf } from "../../sim/policies/index.ts";
import type { RecordingKind } from "../../sim/types.ts";
import { axisTrack } from "./axisTrack.ts";
import { ftTrack } from "./ftTrack.ts";
import { jobTrack } from "./jobTrack.ts";
import { rackTrack } from "./rackTrack.ts";
import { roundsTrack, roundWorkTrack } from "./roundsTrack.ts";
import { slowHostsTrack } from "./slowHostsTrack.ts";
import { slowTrack } from "./slowTrack.ts";
import { spareTrack } from "./spareTrack.ts";
import { wholeJobTrack } from "./syncTrack.ts";
import type { PolicyLane, PolicyTrackType, Track, TrackInput, TrackType } from "./timelineTrack.ts";

const byKind: { [K in RecordingKind]: PolicyTrackType<K>[] } = {
  wholeJob: [wholeJobTrack],
  replicas: [jobTrack, roundsTrack, ftTrack, roundWorkTrack, rackTrack, slowHostsTrack],
};

/** Each selected policy's lanes, in display order, by its recording's kind. */
export const policyLanesTrack: TrackType = {
  id: "policies",
  create(input: TrackInput): Track[] {
    const out: Track[] = [];
    input.trace.policies.forEach((key, index) => {
      const recording = input.trace.recordings[key];
      if (!recording) return;
      const p = policyOf(key);
      const base = { key, label: p.label, shortLabel: p.shortLabel, index };
      if (recording.kind === "wholeJob") {
        const lane: PolicyLane<typeof recording> = { ...base, recording };
        for (const t of byKind.wholeJob) {
          const track = t.create(input, lane);
          if (track) out.push(track);
        }
      } else {
        const lane: PolicyLane<typeof recording> = { ...base, recording };
        for (const t of byKind.replicas) {
          const track = t.create(input, lane);
          if (track) out.push(track);
        }
      }
    });
    return out;
  },
};

const types: TrackType[] = [axisTrack, policyLanesTrack, slowTrack, spareTrack];

/** The registered track types, top to bottom (a copy: registering later changes no renderer). */
export function timelineTrackTypes(): readonly TrackType[] {
  return [...types];
}

/**
 * Adds a track type to every policy lane group of recordings of its kind: below the others, or
 * right before the type with id `before`. Returns a function that removes it again. An id already
 * registered for the kind is refused by name.
 */
export function registerPolicyTracks<K extends RecordingKind>(
  type: PolicyTrackType<K>,
  at: { before?: string } = {},
): () => void {
  const list = byKind[type.kind] as PolicyTrackType<K>[];
  if (list.some((t) => t.id === type.id))
    throw new Error(`policy track "${type.id}" is already registered for "${type.kind}" recordings`);
  const i = at.before === undefined ? -1 : list.findIndex((t) => t.id === at.before);
  if (at.before !== undefined && i < 0) throw new Error(`no policy track "${at.before}" to register before`);
  if (i < 0) list.push(type);
  else list.splice(i, 0, type);
  return () => {
    const k = list.indexOf(type);
    if (k >= 0) list.splice(k, 1);
  };
}

/**
 * Adds a track type: below every other, or right before the type with id `before`. Returns a
 * function that removes it again. An id already registered is refused by name.
 */
export function registerTimelineTrack(type: TrackType, at: { before?: string } = {}): () => void {
  if (types.some((t) => t.id === type.id))
    throw new Error(`timeline track "${type.id}" is already registered`);
  const i = at.before === undefined ? -1 : types.findIndex((t) => t.id === at.before);
  if (at.before !== undefined && i < 0)
    throw new Error(`no timeline track "${at.before}" to register before`);
  if (i < 0) types.push(type);
  else types.splice(i, 0, type);
  return () => {
    const k = types.indexOf(type);
    if (k >= 0) types.splice(k, 1);
  };
}
