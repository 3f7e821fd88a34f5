/**
 * The policies' keys (docs/model.md §4), apart from the registry (policies.ts) so that the
 * scenario's validator can name them without loading every policy's run function. A key is a
 * public contract: it names the policy in scenarios, links, the CLI's JSON and the CSV.
 */
export const POLICY_KEYS = ["synchronous", "ftHsdp", "inMemory", "hotSpare", "diloco"] as const;
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
export const MAX_POLICIES = 5;

/**
 * Keys a plug-in registered at run time (policies.ts's registerPolicy), after the built-in ones.
 * Empty in the shipped app: the built-ins are every policy a link or scenario file can name there.
 */
const registered: string[] = [];

/** Every key a scenario may select now: the built-ins, then any registered ones. */
export function policyKeys(): readonly string[] {
  return registered.length === 0 ? POLICY_KEYS : [...POLICY_KEYS, ...registered];
}

export function isPolicyKey(k: unknown): k is PolicyKey {
  return typeof k === "string" && ((POLICY_KEYS as readonly string[]).includes(k) || registered.includes(k));
}

/** Adds a key (refused by name if taken); returns a function that removes it again. */
export function registerPolicyKey(k: string): () => void {
  if (isPolicyKey(k)) throw new Error(`policy key "${k}" is already registered`);
  if (!/^[a-z][A-Za-z0-9]{0,31}$/.test(k))
    throw new Error(`policy key "${k}" must be a camelCase identifier of at most 32 characters`);
  registered.push(k);
  return () => {
    const i = registered.indexOf(k);
    if (i >= 0) registered.splice(i, 1);
  };
}

/** `policies`' allowed values, in words: every refusal of the list says it. */
export function policiesAllowed(): string {
  return `a list of 1–${MAX_POLICIES} distinct keys of ${policyKeys()
    .map((k) => `"${k}"`)
    .join(", ")}`;
}
