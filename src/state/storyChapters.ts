/**
 * The story's chapters, by the id a link carries (`ch=<id>`). Ids, not numbers, so that a chapter
 * added later never changes what an old link opens. The order here is the reading order.
 */
export const CHAPTER_IDS = [
  "one-failure",
  "sync-collapses",
  "lose-a-replica",
  "predict",
  "gradients",
  "ftar-kernels",
  "real-clusters",
  "your-cluster",
] as const;
export type ChapterId = (typeof CHAPTER_IDS)[number];

/** The chapter `delta` steps away, clamped to the story's ends. */
export function stepChapter(c: ChapterId, delta: number): ChapterId {
  const i = CHAPTER_IDS.indexOf(c) + delta;
  return CHAPTER_IDS[Math.max(0, Math.min(CHAPTER_IDS.length - 1, i))] ?? c;
}
