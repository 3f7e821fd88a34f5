/**
 * A policy's colour as every chart reads it: the registry's entry
 * (policies.ts's `colour`, a theme variable of styles.css and its fallback) set on an element as
 * the CSS custom property `--policy`, which the element's CSS (and its children's) reads with
 * `var(--policy)`. React sets it through the CSSOM, which the page's CSP allows (an inline style
 * attribute would not be). No chart names a policy in its CSS, so a new policy's colour is its
 * registry entry and one theme variable.
 */
import type { CSSProperties } from "react";
import { policyOf } from "../sim/policies/index.ts";

/** The policy's colour as a CSS value: its theme variable, or the registry's fallback. */
export function policyColour(key: string): string {
  const { cssVar, fallback } = policyOf(key).colour;
  return `var(${cssVar}, ${fallback})`;
}

/** A style that sets `--policy` to the policy's colour, for the element and its children. */
export function policyStyle(key: string): CSSProperties {
  return { "--policy": policyColour(key) } as CSSProperties;
}
