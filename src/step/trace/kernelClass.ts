/**
 * Kernel classes as Holistic Trace Analysis defines them (hta/utils/utils.py, `get_kernel_type`,
 * `is_comm_kernel`, `is_memory_kernel`): communication is a kernel whose name matches
 * `(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)`, case-insensitive, so both the old
 * `ncclKernel_AllReduce_RING_LL_Sum_float` and the newer `ncclDevKernel_AllReduce_Sum_f32_RING_LL`
 * and `ncclDevKernel_Generic` count (HTA issues #122, #208, #247, #360); memory is an activity of
 * category `gpu_memcpy` or `gpu_memset`; computation is every other kernel. The test is applied
 * in that order, as `get_kernel_type` does.
 */
export type KernelClass = "comm" | "memory" | "compute";

export const COMM_KERNEL_RE = /(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)/i;

export function classifyKernel(name: string, category: string): KernelClass {
  if (COMM_KERNEL_RE.test(name)) return "comm";
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
