/**
 * The timeline's track types, in stacking order. A new kind of track is one file (a TrackType,
 * see timelineTrack.ts) and one line here, or a registerTimelineTrack call; a policy module can
 * bring its own types the same way (issue 17: each policy's lanes come from its module).
 */
import { axisTrack } from "./axisTrack.ts";
import { ftTrack } from "./ftTrack.ts";
import { jobTrack } from "./jobTrack.ts";
import { rackTrack } from "./rackTrack.ts";
import { spareTrack } from "./spareTrack.ts";
import { syncTrack } from "./syncTrack.ts";
import type { TrackType } from "./timelineTrack.ts";

const types: TrackType[] = [axisTrack, syncTrack, jobTrack, ftTrack, rackTrack, spareTrack];

/** The registered track types, top to bottom (a copy: registering later changes no renderer). */
export function timelineTrackTypes(): readonly TrackType[] {
  return [...types];
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
