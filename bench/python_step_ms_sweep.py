"""How long 1,000,000 ROOFLINE_STEP_MS evaluations take from Python: one sweep over numpy arrays of batch
and ctx (one call of roofline_call_many()), beside the scalar function called in a loop. Prints numbers;
asserts nothing (the issue's target: under 2 s on one core).

    ROOFLINE_LIBRARY=build/c-api/libroofline.so PYTHONPATH=python taskset -c 0 /usr/bin/python3 bench/python_step_ms_sweep.py
"""
import os
import sys
import time

import numpy as np

import roofline

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
REPEATS = 3
LOOP = 20_000  # scalar calls timed, then scaled to N


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main():
    i = np.arange(N)
    batch = (i % 256 + 1).astype(np.float64)   # 1 .. 256 sequences
    ctx = (i % 64 * 128).astype(np.float64)    # 0 .. 8064 tokens
    print(f"roofline {roofline.library_version()}, numpy {np.__version__}, Python {sys.version.split()[0]}, "
          f"CPUs allowed: {len(os.sched_getaffinity(0))}, load average {os.getloadavg()[0]:.1f}")
    print(f"ROOFLINE_STEP_MS(\"llama-3-8b\"; \"h100-sxm\"; batch; ctx) over {N:,} elements (numpy arrays of batch and ctx):")
    best = None
    for r in range(REPEATS):
        wall, cpu, ms = timed(lambda: roofline.step_ms("llama-3-8b", "h100-sxm", batch, ctx))
        print(f"  sweep, run {r + 1}: {wall:.3f} s wall, {cpu:.3f} s CPU ({cpu / N * 1e9:.0f} ns CPU per element)")
        best = cpu if best is None else min(best, cpu)
    print(f"  best: {best:.3f} s CPU for {N:,} evaluations; result shape {ms.shape}, ms[:3] = {ms[:3]}")
    b, c = batch[:LOOP].tolist(), ctx[:LOOP].tolist()
    wall, cpu, _ = timed(lambda: [roofline.step_ms("llama-3-8b", "h100-sxm", x, y) for x, y in zip(b, c)])
    print(f"  for comparison, the scalar function in a Python loop: {cpu / LOOP * 1e6:.1f} us CPU per call, "
          f"{cpu / LOOP * N:.1f} s CPU for {N:,}")


if __name__ == "__main__":
    main()
