#!/usr/bin/python3
"""
Real PyTorch profiler traces for the trace importer's tests (src/step/trace/fixtures/).

Runs DistributedDataParallel on CPU with the gloo backend, 2 ranks (two processes on this
machine), a small MLP, and torch.profiler with a schedule, so each rank writes one trace with
ProfilerStep#N annotations. Debian's python3-torch is enough:

    apt-get install -y python3-torch && /usr/bin/python3 scripts/make-trace-fixtures.py

The outputs are gzipped (cpu-gloo-rank0.json.gz, cpu-gloo-rank1.json.gz) to keep them small.

The same run with a change made on purpose, for the trace comparison's tests (docs/trace.md):

    /usr/bin/python3 scripts/make-trace-fixtures.py --slow-rank 1 --name cpu-gloo-slow1

--slow-rank R gives rank R extra computation each step (--slow-mms matrix products of 256x256,
between forward and backward), so the other rank waits for it in the all-reduces;
--bucket-cap-mb sets DDP's bucket cap (0.5 by default; with this small model, torch 1.13 on gloo
makes two all-reduces a step at 0.5 and at 25 alike); --name names the outputs.
"""
import argparse
import gzip
import os
import shutil
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "step", "trace", "fixtures")
STEPS = 4  # active profiler steps: the last is dropped by default, as HTA does


def run(rank: int, world: int, tmp: str, cap_mb: float, slow_rank: int, slow_mms: int) -> None:
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29533"
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.Sequential(
        torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10)
    )
    # A small bucket cap so the gradients travel in several all-reduces, as on a real model.
    ddp = DDP(model, bucket_cap_mb=cap_mb)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
    x = torch.randn(64, 256)
    y = torch.randint(0, 10, (64,))
    extra = torch.randn(256, 256)
    path = os.path.join(tmp, f"rank{rank}.json")

    def save(prof):
        prof.export_chrome_trace(path)

    schedule = torch.profiler.schedule(wait=1, warmup=1, active=STEPS, repeat=1)
    with torch.profiler.profile(
        activities=[torch.profiler.ProfilerActivity.CPU], schedule=schedule, on_trace_ready=save
    ) as prof:
        for _ in range(2 + STEPS):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(ddp(x), y)
            if rank == slow_rank:
                for _ in range(slow_mms):
                    torch.mm(extra, extra)
            loss.backward()
            opt.step()
            prof.step()
    dist.barrier()
    dist.destroy_process_group()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bucket-cap-mb", type=float, default=0.5)
    ap.add_argument("--slow-rank", type=int, default=-1)
    ap.add_argument("--slow-mms", type=int, default=40, help="extra 256x256 matrix products a step")
    ap.add_argument("--name", default="cpu-gloo")
    a = ap.parse_args()
    world = 2
    tmp = tempfile.mkdtemp()
    mp.spawn(run, args=(world, tmp, a.bucket_cap_mb, a.slow_rank, a.slow_mms), nprocs=world, join=True)
    os.makedirs(OUT, exist_ok=True)
    for rank in range(world):
        src = os.path.join(tmp, f"rank{rank}.json")
        with open(src, "rb") as f_in, gzip.open(os.path.join(OUT, f"{a.name}-rank{rank}.json.gz"), "wb", 9) as f_out:
            shutil.copyfileobj(f_in, f_out)
        print(f"rank {rank}: {os.path.getsize(src)} bytes -> {a.name}-rank{rank}.json.gz", file=sys.stderr)
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
