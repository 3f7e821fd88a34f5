/** The ring of simulated devices: who sends to whom in the current step, and who is dead. */
import type { Hop } from "../../gpu/ftar.ts";

const R = 78;
const C = 110;

function position(i: number, n: number) {
  const a = (2 * Math.PI * i) / n - Math.PI / 2;
  return { x: C + R * Math.cos(a), y: C + R * Math.sin(a) };
}

export function RingDiagram({
  title,
  devices,
  ring,
  dead,
  hops,
}: {
  title: string;
  devices: number;
  ring: number[];
  dead: number[];
  hops: Hop[];
}) {
  const at = (rank: number) => position(rank, devices);
  return (
    <figure className="ring">
      <svg viewBox={`0 0 ${2 * C} ${2 * C}`} role="img" aria-label={`${title}: ring ${ring.join(" → ")}`}>
        <defs>
          <marker
            id="ring-arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="6"
            markerHeight="6"
            orient="auto"
          >
            <path d="M0 0 L10 5 L0 10 z" className="hop-head" />
          </marker>
        </defs>
        {ring.map((r, i) => {
          const a = at(r);
          const b = at(ring[(i + 1) % ring.length] ?? r);
          return <line key={`e${r}`} x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="ring-edge" />;
        })}
        {hops.map((h) => {
          const a = at(h.from);
          const b = at(h.to);
          const dx = b.x - a.x;
          const dy = b.y - a.y;
          const len = Math.hypot(dx, dy) || 1;
          const k = 16 / len;
          return (
            <line
              key={`h${h.from}-${h.to}-${h.chunk ?? ""}`}
              x1={a.x + dx * k}
              y1={a.y + dy * k}
              x2={b.x - dx * k}
              y2={b.y - dy * k}
              className={dead.includes(h.from) || dead.includes(h.to) ? "hop stuck" : "hop"}
              markerEnd="url(#ring-arrow)"
            />
          );
        })}
        {Array.from({ length: devices }, (_, i) => i).map((r) => {
          const p = at(r);
          const isDead = dead.includes(r);
          const inRing = ring.includes(r);
          return (
            <g key={`n${r}`} className={isDead ? "node dead" : inRing ? "node" : "node out"}>
              <circle cx={p.x} cy={p.y} r={14} />
              <text x={p.x} y={p.y} dy="0.35em" textAnchor="middle">
                {isDead ? "✕" : r}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>{title}</figcaption>
    </figure>
  );
}
