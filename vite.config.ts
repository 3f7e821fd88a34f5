import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/**
 * What the built app may load: its own scripts and workers only (no inline script, no eval),
 * images from itself, data: (the favicon) and blob: (SVG → PNG export). WebGPU needs no source.
 * `frame-ancestors` only works as a header, so the preview server sends it there.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join("; ");

/** The policy as a <meta> in the built index.html (the dev server injects inline scripts for hot reload). */
function contentSecurityPolicy(): Plugin {
  return {
    name: "content-security-policy",
    apply: "build",
    transformIndexHtml: () => [
      {
        tag: "meta",
        attrs: { "http-equiv": "Content-Security-Policy", content: CSP },
        injectTo: "head-prepend",
      },
    ],
  };
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  base: "./",
  worker: { format: "es" },
  build: { target: "es2022", sourcemap: true },
  preview: {
    port: 4173,
    strictPort: true,
    headers: { "Content-Security-Policy": `${CSP}; frame-ancestors 'none'` },
  },
});
