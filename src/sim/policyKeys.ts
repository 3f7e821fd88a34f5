/**
 * The policies' keys (SIMULATION.md §4), apart from the registry (policies.ts) so that the
 * scenario's validator can name them without loading every policy's run function. A key is a
 * public contract: it names the policy in scenarios, links, the CLI's JSON and the CSV.
 */
export const POLICY_KEYS = ["synchronous", "ftHsdp", "inMemory", "hotSpare"] as const;
export type PolicyKey = (typeof POLICY_KEYS)[number];

/** What every scenario ran before version 3, and still runs when it names no policies. */
export const DEFAULT_POLICIES = ["synchronous", "ftHsdp"] as const satisfies readonly PolicyKey[];
/**
 * The default selection's keys. Results type these as always present because the page still
 * reads them by name (until it iterates the scenario's selection); the others are optional.
 */
export type DefaultPolicyKey = (typeof DEFAULT_POLICIES)[number];

/** One value per selected policy: the default ones typed as present (see DefaultPolicyKey). */
export type PerPolicy<T> = Record<DefaultPolicyKey, T> & Partial<Record<PolicyKey, T>>;

/** At most this many policies side by side. */
export const MAX_POLICIES = 4;

/** `policies`' allowed values, in words: every refusal of the list says it. */
export const POLICIES_ALLOWED = `a list of 1–${MAX_POLICIES} distinct keys of ${POLICY_KEYS.map((k) => `"${k}"`).join(", ")}`;
