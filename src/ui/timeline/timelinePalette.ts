/** The timeline's colours, read from the theme's CSS variables so the canvas follows light and dark. */
import { registeredPolicies } from "../../sim/policies/index.ts";

export interface Palette {
  bg: string;
  text: string;
  muted: string;
  grid: string;
  accent: string;
  training: string;
  stalled: string;
  down: string;
  catchUp: string;
  rejoin: string;
  recovering: string;
  checkpoint: string;
  rolledBack: string;
  hang: string;
  /** Waiting for a spare host (§3). */
  waitSpare: string;
  /** §6: slow hosts (the slow track's bars), and their shade over a replica lane (translucent). */
  slow: string;
  slowShade: string;
  /** §7: a DiLoCo round's outer sync, and a replica's idle wait for the next round (translucent). */
  outerSync: string;
  idle: string;
  /** Each registered policy's colour, by key (its registry entry's theme variable, read from the theme). */
  policies: Readonly<Record<string, string>>;
}

export function readPalette(el: Element): Palette {
  const cs = getComputedStyle(el);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  return {
    bg: v("--panel", "#fff"),
    text: v("--text", "#111"),
    muted: v("--muted", "#666"),
    grid: v("--border", "#ddd"),
    accent: v("--accent", "#2f6fde"),
    training: v("--st-training", "#8fd1a8"),
    stalled: v("--st-stalled", "#f2c14e"),
    down: v("--st-down", "#d1495b"),
    catchUp: v("--st-catchup", "#6c8ebf"),
    rejoin: v("--st-rejoin", "#9b6bd6"),
    recovering: v("--st-recovering", "#d1495b"),
    checkpoint: v("--st-checkpoint", "#6c8ebf"),
    rolledBack: v("--st-rolledback", "#7a7a7a"),
    hang: v("--st-rejoin", "#9b6bd6"),
    waitSpare: v("--st-waitspare", "#e07b39"),
    slow: v("--st-slow", "#8d5a3b"),
    slowShade: v("--st-slow-shade", "rgba(141, 90, 59, 0.45)"),
    outerSync: v("--st-outersync", "#8a5cc7"),
    idle: v("--st-idle", "rgba(120, 120, 120, 0.55)"),
    policies: Object.fromEntries(
      registeredPolicies().map((q) => [q.key, v(q.colour.cssVar, q.colour.fallback)]),
    ),
  };
}

/** Hatching for rolled-back work (trained, then lost), built once per palette. */
export class HatchPattern {
  private pattern: CanvasPattern | null = null;
  private key = "";

  get(ctx: CanvasRenderingContext2D, p: Palette): CanvasPattern | string {
    const key = p.rolledBack + p.training;
    if (!this.pattern || this.key !== key) {
      const tile = document.createElement("canvas");
      tile.width = 6;
      tile.height = 6;
      const t = tile.getContext("2d");
      if (!t) return p.rolledBack;
      t.fillStyle = p.training;
      t.fillRect(0, 0, 6, 6);
      t.strokeStyle = p.rolledBack;
      t.lineWidth = 2;
      t.beginPath();
      t.moveTo(-1, 7);
      t.lineTo(7, -1);
      t.moveTo(-1, 1);
      t.lineTo(1, -1);
      t.moveTo(5, 7);
      t.lineTo(7, 5);
      t.stroke();
      this.pattern = ctx.createPattern(tile, "repeat");
      this.key = key;
    }
    return this.pattern ?? p.rolledBack;
  }
}
