/**
 * The communication-kernel test is HTA's pattern, without its cost: the same answer as the
 * regular expression on every name (fast-check, over the letters that matter, their cases, and
 * the characters whose case folding differs), and a 4 MB name — the longest one event may hold —
 * classified as the short one is.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMM_KERNEL_RE, classifyKernel, isCommKernel } from "./kernelClass.ts";

const PIECES = [
  "nccl",
  "NCCL",
  "Kernel",
  "kernel",
  "hip",
  "HIP",
  "hccl",
  "ncclKer",
  "_",
  "x",
  "\n",
  "ı",
  "K",
  "İ",
  "ſ",
];

describe("communication kernels, as HTA's pattern classes them", () => {
  it("agree with (^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*) on every name", () => {
    const name = fc
      .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 3 })), { maxLength: 8 })
      .map((p) => p.join(""));
    fc.assert(
      fc.property(name, (n) => {
        expect(isCommKernel(n)).toBe(COMM_KERNEL_RE.test(n));
      }),
      { numRuns: 3000 },
    );
    for (const n of [
      "ncclKernel_AllReduce_RING_LL_Sum_float",
      "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
      "ncclDevKernel_Generic",
      "void at::native::ncclKernel<float>",
      "hipMemcpy",
      "HCCL_AllReduce",
      "volta_sgemm_128x64_nn",
      "ncc",
    ])
      expect(isCommKernel(n)).toBe(COMM_KERNEL_RE.test(n));
  });

  it("a 4 MB kernel name is classified in one pass (the regular expression took the square of its length)", () => {
    // The shapes that made the pattern backtrack: no prefix match, and `ncclKerne` again and again
    // without the final `l`, or the match only at the very end.
    const MB4 = 4 << 20;
    const long = "a".repeat(MB4);
    const near = "ncclKerne_".repeat(MB4 / 10);
    expect(classifyKernel(long, "kernel")).toBe("compute");
    expect(classifyKernel(near.slice(1), "kernel")).toBe("compute");
    expect(classifyKernel(`${long}ncclKernel`, "kernel")).toBe("comm");
    expect(classifyKernel(`void ${near}NCCLKERNEL`, "kernel")).toBe("comm");
    expect(classifyKernel(long, "gpu_memcpy")).toBe("memory");
  });
});
