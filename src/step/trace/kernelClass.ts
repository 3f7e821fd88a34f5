/**
 * Kernel classes as Holistic Trace Analysis defines them (hta/utils/utils.py, `get_kernel_type`,
 * `is_comm_kernel`, `is_memory_kernel`): communication is a kernel whose name matches
 * `(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)`, case-insensitive, so both the old
 * `ncclKernel_AllReduce_RING_LL_Sum_float` and the newer `ncclDevKernel_AllReduce_Sum_f32_RING_LL`
 * and `ncclDevKernel_Generic` count (HTA issues #122, #208, #247, #360); memory is an activity of
 * category `gpu_memcpy` or `gpu_memset`; computation is every other kernel. The test is applied
 * in that order, as `get_kernel_type` does.
 *
 * The pattern is not run as a regular expression: `.*ncclKernel.*`, searched for at every start
 * position, backtracks over the rest of the name each time, so a long name costs the square of
 * its length (100K characters took 10 s). It means, exactly: the name starts with `nccl`, `hip`
 * or `hccl`, or holds `ncclKernel` anywhere (`.` matches no line break, but `ncclKernel` has
 * none, and `.*` may be empty), letters compared without case.
 */
export type KernelClass = "comm" | "memory" | "compute";

/** HTA's pattern, for reference and for the test that checks `isCommKernel` against it. */
export const COMM_KERNEL_RE = /(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)/i;

/**
 * The same tests as two patterns that cannot backtrack: an anchored prefix, and one fixed word
 * searched for (each start position compares at most 10 characters). The `i` flag folds case
 * exactly as in HTA's pattern above.
 */
const COMM_PREFIX = /^(?:nccl|hip|hccl)/i;
const NCCL_KERNEL = /ncclkernel/i;

/** HTA's `is_comm_kernel`, in linear time (see above). */
export function isCommKernel(name: string): boolean {
  return COMM_PREFIX.test(name) || NCCL_KERNEL.test(name);
}

export function classifyKernel(name: string, category: string): KernelClass {
  if (isCommKernel(name)) return "comm";
  const cat = category.toLowerCase();
  if (cat === "gpu_memcpy" || cat === "gpu_memset" || cat === "memcpy" || cat === "memset") return "memory";
  return "compute";
}

/** HTA's names of the classes, as its breakdown tables print them. */
export const HTA_CLASS_NAME: Readonly<Record<KernelClass, string>> = {
  compute: "COMPUTATION",
  comm: "COMMUNICATION",
  memory: "MEMORY",
};

/**
 * A CPU-side communication op and the collective it names, or null: `record_param_comms` (its
 * args name the collective), `c10d::allreduce_`, `nccl:all_reduce`, and gloo's own
 * `gloo:all_reduce`, which on a CPU run spans the collective itself.
 */
export function isCommCpuOp(name: string): string | null {
  if (name === "record_param_comms") return "unknown";
  const m = /^(?:gloo|nccl|c10d)(?::|::)([A-Za-z_]+?)_?$/.exec(name);
  return m === null ? null : (m[1] as string);
}

/** gloo's collective spans: what stands for communication in a CPU (gloo) trace. */
export function isGlooCollective(name: string): boolean {
  return name.startsWith("gloo:");
}

/** The collective of a kernel or op name, normalised: `AllReduce`, `all_reduce`, `allreduce` → `allreduce`. */
export function collectiveOf(name: string): string {
  const m = /(all_?reduce|all_?gather|reduce_?scatter|broadcast|all_?to_?all|send|recv|barrier)/i.exec(name);
  return m === null ? "other" : (m[1] as string).replace(/_/g, "").toLowerCase();
}
