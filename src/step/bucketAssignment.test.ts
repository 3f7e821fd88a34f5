import { describe, expect, it } from "vitest";
import { assignBuckets, MIB, mibToBytes } from "./bucketAssignment.ts";
import { makeParam, type Param } from "./modelList.ts";
import { presetParams } from "./presets.ts";

/** A float32 parameter of `kib` KiB (256 elements per KiB). */
const f32 = (name: string, kib: number) => makeParam({ name, shape: [kib * 256], dtype: "float32" });
const f16 = (name: string, kib: number) => makeParam({ name, shape: [kib * 512], dtype: "torch.float16" });

function names(params: readonly Param[], limits: { capBytes: number; firstBucketBytes: number }) {
  return assignBuckets(params, limits).map((b) => b.params.map((i) => params[i]?.name));
}

describe("assignBuckets (PyTorch's rebuilt buckets)", () => {
  const limits = { capBytes: 4 * MIB, firstBucketBytes: MIB };

  it("walks gradient-ready order (reverse registration) and closes a bucket once it reaches its limit", () => {
    // Ready order: d, c, b, a. First limit 1 MiB: d (512 KiB) + c (512 KiB) = 1 MiB ≥ 1 MiB → closed.
    const ps = [f32("a", 1024), f32("b", 2048), f32("c", 512), f32("d", 512)];
    // Then limit 4 MiB: b (2 MiB) + a (1 MiB) = 3 MiB < 4 MiB → left open, emitted at the end.
    expect(names(ps, limits)).toEqual([
      ["d", "c"],
      ["b", "a"],
    ]);
  });

  it("lets a bucket overshoot its limit by its last parameter", () => {
    // d 768 KiB < 1 MiB; + c 768 KiB = 1.5 MiB → closes over the limit, holding both.
    const ps = [f32("a", 10), f32("c", 768), f32("d", 768)];
    const buckets = assignBuckets(ps, limits);
    expect(buckets[0]?.params).toEqual([2, 1]);
    expect(buckets[0]?.bytes).toBe(1536 * 1024);
    expect(buckets[0]?.limit).toBe(MIB);
  });

  it("gives a parameter larger than the cap a bucket of its own", () => {
    // Ready order: e, big, s1, s0. e (1 MiB) fills the first bucket alone; big (10 MiB > 4 MiB cap)
    // closes the next bucket by itself; s1 + s0 stay open.
    const ps = [f32("s0", 1), f32("s1", 1), f32("big", 10 * 1024), f32("e", 1024)];
    expect(names(ps, limits)).toEqual([["e"], ["big"], ["s1", "s0"]]);
  });

  it("keeps one open bucket and one limit sequence per dtype", () => {
    // Ready order: h1 (fp16 512 KiB), w1 (fp32 600 KiB), h2 (fp16 512 KiB), w2 (fp32 600 KiB), ...
    const ps = [
      f32("w3", 3 * 1024),
      f16("h3", 3 * 1024),
      f32("w2", 600),
      f16("h2", 512),
      f32("w1", 600),
      f16("h1", 512),
    ];
    const buckets = assignBuckets(ps, limits);
    // fp16: h1 + h2 = 1 MiB reaches fp16's own first limit → closed first, while fp32 holds only w1.
    // fp32: w1 + w2 = 1200 KiB ≥ 1 MiB → closed. fp16's limit is now 4 MiB: h3 (3 MiB) stays open;
    // fp32's is 4 MiB too: w3 stays open. Leftovers follow, one per dtype.
    const named = buckets.map((b) => [b.dtype, b.params.map((i) => ps[i]?.name)]);
    expect(named.slice(0, 2)).toEqual([
      ["float16", ["h1", "h2"]],
      ["float32", ["w1", "w2"]],
    ]);
    // PyTorch emits the leftovers in hash-map order: any order of them is right.
    expect(named.slice(2)).toHaveLength(2);
    expect(named.slice(2)).toEqual(
      expect.arrayContaining([
        ["float32", ["w3"]],
        ["float16", ["h3"]],
      ]),
    );
    expect(buckets.slice(2).map((b) => b.limit)).toEqual([4 * MIB, 4 * MIB]);
  });

  it("gives a dtype that first appears after another dtype's bucket closed its own first-bucket cap", () => {
    // PyTorch keeps the limit iterator per (dtype, device) key and starts a key's at the first limit
    // when that key first appears (reducer.cpp, compute_bucket_assignment_by_size). Ready order:
    // w1 (fp32 1 MiB) closes fp32's first bucket alone; only then does fp16 appear.
    const ps = [f16("h3", 512), f16("h2", 512), f16("h1", 512), f32("w1", 1024)];
    const buckets = assignBuckets(ps, limits);
    const named = buckets.map((b) => [b.dtype, b.limit, b.params.map((i) => ps[i]?.name)]);
    // fp16's first bucket is capped at 1 MiB too: h1 + h2 = 1 MiB closes it. A cap shared across
    // dtypes would give fp16 the 4 MiB cap here and keep h1, h2, h3 in one open bucket.
    expect(named).toEqual([
      ["float32", MIB, ["w1"]],
      ["float16", MIB, ["h1", "h2"]],
      ["float16", 4 * MIB, ["h3"]],
    ]);
  });

  it("caps only the first bucket at first_bucket_bytes; later ones at bucket_cap", () => {
    // Eight 768 KiB params: first bucket 768+768 = 1.5 MiB ≥ 1 MiB (2 params); then 4 MiB buckets
    // need six: 6 × 768 KiB = 4.5 MiB ≥ 4 MiB.
    const ps = Array.from({ length: 8 }, (_, i) => f32(`p${i}`, 768));
    expect(assignBuckets(ps, limits).map((b) => b.params.length)).toEqual([2, 6]);
    // With a 2 MiB first bucket, it takes three (2.25 MiB); the remaining five (3.75 MiB) stay open.
    expect(
      assignBuckets(ps, { capBytes: 4 * MIB, firstBucketBytes: 2 * MIB }).map((b) => b.params.length),
    ).toEqual([3, 5]);
  });

  it("closes at exactly the limit (>=, not >)", () => {
    const ps = [f32("b", 1), f32("a", 1024)];
    expect(names(ps, limits)).toEqual([["a"], ["b"]]);
  });

  it("truncates fractional MiB like int(bucket_cap_mb * 1024 * 1024)", () => {
    expect(mibToBytes(0.5)).toBe(524288);
    expect(mibToBytes(1 / 3)).toBe(349525);
  });

  it("puts every parameter in exactly one bucket", () => {
    const ps = presetParams("vit_b_16");
    const all = assignBuckets(ps, { capBytes: 25 * MIB, firstBucketBytes: MIB }).flatMap((b) => b.params);
    expect(all.sort((x, y) => x - y)).toEqual(ps.map((_, i) => i));
  });

  describe("ResNet-50 (torchvision list)", () => {
    const ps = presetParams("resnet50");
    const byName = (name: string) => ps.findIndex((p) => p.name === name);

    it("at 25 MiB gives 5 buckets with hand-checked boundaries", () => {
      // By hand, ready order starts at the head: fc.bias 1000·4 = 4,000 B; + fc.weight 1000·2048·4 =
      // 8,192,000 B → 8,196,000 ≥ 1 MiB: bucket 0 = [fc.bias, fc.weight].
      // Next limit 25 MiB = 26,214,400 B. layer4.2 (bn3 b/w 2·8,192; conv3 2048·512·4 = 4,194,304;
      // bn2 b/w 2·2,048; conv2 512·512·9·4 = 9,437,184; bn1 b/w 2·2,048; conv1 4,194,304) = 17,850,368;
      // + layer4.1 bn3 b/w 16,384 + conv3 4,194,304 + bn2 b/w 4,096 = 22,065,152; + layer4.1.conv2
      // 9,437,184 = 31,502,336 ≥ 26,214,400: bucket 1 = 15 params ending at layer4.1.conv2.weight.
      const buckets = assignBuckets(ps, { capBytes: 25 * MIB, firstBucketBytes: MIB });
      expect(buckets).toHaveLength(5);
      expect(buckets[0]?.params).toEqual([byName("fc.bias"), byName("fc.weight")]);
      expect(buckets[0]?.bytes).toBe(8_196_000);
      expect(buckets[1]?.params).toHaveLength(15);
      expect(buckets[1]?.params.at(-1)).toBe(byName("layer4.1.conv2.weight"));
      expect(buckets[1]?.bytes).toBe(31_502_336);
      // The last (still open) bucket ends at the stem.
      expect(buckets.at(-1)?.params.at(-1)).toBe(byName("conv1.weight"));
      expect(buckets.reduce((s, b) => s + b.bytes, 0)).toBe(25_557_032 * 4);
    });

    it("at 1 MiB gives 35 buckets: layer4/layer3 one bottleneck conv per bucket, early layers grouped", () => {
      // By hand: at a 1 MiB cap every layer3/layer4 conv (≥ 256·1024·4 = 1 MiB) closes a bucket
      // with the two BatchNorm vectors before it: [bnX.bias, bnX.weight, convX.weight].
      const buckets = assignBuckets(ps, { capBytes: MIB, firstBucketBytes: MIB });
      expect(buckets).toHaveLength(35);
      expect(buckets[2]?.params).toEqual([
        byName("layer4.2.bn2.bias"),
        byName("layer4.2.bn2.weight"),
        byName("layer4.2.conv2.weight"),
      ]);
      expect(buckets.at(-1)?.params.at(-1)).toBe(byName("conv1.weight"));
    });
  });

  describe("ResNet-18, against all-reduce sizes PyTorch itself produced", () => {
    /** torchvision's resnet18().named_parameters(), built from its layer shapes. */
    function resnet18(): Param[] {
      const list: [string, number[]][] = [
        ["conv1.weight", [64, 3, 7, 7]],
        ["bn1.weight", [64]],
        ["bn1.bias", [64]],
      ];
      let inC = 64;
      for (const [layer, c] of [
        [1, 64],
        [2, 128],
        [3, 256],
        [4, 512],
      ] as const) {
        for (const block of [0, 1]) {
          const p = `layer${layer}.${block}`;
          const cin = block === 0 ? inC : c;
          list.push(
            [`${p}.conv1.weight`, [c, cin, 3, 3]],
            [`${p}.bn1.weight`, [c]],
            [`${p}.bn1.bias`, [c]],
            [`${p}.conv2.weight`, [c, c, 3, 3]],
            [`${p}.bn2.weight`, [c]],
            [`${p}.bn2.bias`, [c]],
          );
          if (block === 0 && layer > 1) {
            list.push(
              [`${p}.downsample.0.weight`, [c, cin, 1, 1]],
              [`${p}.downsample.1.weight`, [c]],
              [`${p}.downsample.1.bias`, [c]],
            );
          }
        }
        inC = c;
      }
      list.push(["fc.weight", [1000, 512]], ["fc.bias", [1000]]);
      return list.map(([name, shape]) => makeParam({ name, shape, dtype: "float32" }));
    }

    it("matches the NCCL all-reduce sizes reported from DDP on ResNet-18 (pytorch/pytorch#48880)", () => {
      // The issue measured, per step, all-reduces of 2,052,000 / 28,852,224 / 15,853,824 bytes with
      // the default 25 MiB cap and 2,052,000 / 38,297,600 / 6,408,448 with bucket_cap_mb=35.
      const ps = resnet18();
      expect(ps.reduce((s, p) => s + p.numel, 0)).toBe(11_689_512);
      const sizes = (capMb: number) =>
        assignBuckets(ps, { capBytes: mibToBytes(capMb), firstBucketBytes: MIB }).map((b) => b.bytes);
      expect(sizes(25)).toEqual([2_052_000, 28_852_224, 15_853_824]);
      expect(sizes(35)).toEqual([2_052_000, 38_297_600, 6_408_448]);
    });
  });
});
