/**
 * PNG of any chart: canvases directly, SVG charts through an <img> of the serialised SVG. Styles
 * that come from CSS (theme variables, classes) do not travel with an SVG file, so the computed
 * paint and text properties are copied inline onto a clone before it is serialised.
 */
const INLINED = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "stroke-opacity",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "text-anchor",
  "dominant-baseline",
  "visibility",
] as const;

function blobOf(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error("the canvas could not be encoded"))),
      "image/png",
    ),
  );
}

/** A PNG of a canvas, on an opaque background (a transparent PNG looks broken in viewers). */
export async function canvasToPng(canvas: HTMLCanvasElement, background: string): Promise<Blob> {
  const out = document.createElement("canvas");
  out.width = canvas.width;
  out.height = canvas.height;
  const ctx = out.getContext("2d");
  if (!ctx) throw new Error("no 2D canvas context");
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(canvas, 0, 0);
  return blobOf(out);
}

/** The SVG as standalone markup, with computed styles inlined so it renders the same anywhere. */
export function serializeSvg(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const src = [svg, ...svg.querySelectorAll("*")];
  const dst = [clone, ...clone.querySelectorAll("*")];
  src.forEach((el, i) => {
    const target = dst[i];
    if (!(target instanceof SVGElement)) return;
    const cs = getComputedStyle(el);
    for (const p of INLINED) target.style.setProperty(p, cs.getPropertyValue(p));
  });
  const { width, height } = svg.getBoundingClientRect();
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  return new XMLSerializer().serializeToString(clone);
}

export async function svgToPng(svg: SVGSVGElement, background: string, scale = 2): Promise<Blob> {
  const { width, height } = svg.getBoundingClientRect();
  const url = URL.createObjectURL(new Blob([serializeSvg(svg)], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = Math.ceil(width * scale);
    canvas.height = Math.ceil(height * scale);
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas context");
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await blobOf(canvas);
  } finally {
    URL.revokeObjectURL(url);
  }
}
