"""Smoke workloads: ``python -m tinyml.smoke --workload NAME --steps N``.

Runs N steps of a small fake workload, printing one progress line per step
(flushed, so a timed-out run still shows how far it got).

Options:
  --gpus N    GPUs the workload needs (default 0).
  --strict    numerical warnings become failures.
  --sleep S   sleep S seconds in total, spread evenly over the steps.
  --fail      inject a failure at the last step (to demo a red smoke).
  --seed N    seed for the deterministic random inputs (default 0).

Exit codes (the contract gatekit relies on):
  0  every step passed
  1  a step failed (check failed, strict warning, or --fail)
  2  usage error (bad arguments, bad TINYML_FAKE_GPUS)
  3  --gpus N needs more GPUs than tinyml.device sees; on CPU-only machines
     set TINYML_FAKE_GPUS=N to fake them
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import threading
import time
from typing import Callable

from tinyml import device, tensor
from tinyml.kernels import attention
from tinyml.stream.queue import Closed, WorkQueue

PREFIX = "[smoke]"


class StepFailure(Exception):
    """A workload step produced a wrong result."""


def _rand(rng: random.Random, rows: int, cols: int) -> tensor.Matrix:
    return [[rng.uniform(-1.0, 1.0) for _ in range(cols)] for _ in range(rows)]


# Each workload runs one step and returns (detail for the progress line, warnings).
Workload = Callable[[int, random.Random, argparse.Namespace, device.Devices], tuple[str, list[str]]]


def _matmul(step, rng, args, devs):
    n = 4 + step
    a = _rand(rng, n, n)
    if tensor.matmul(a, tensor.identity(n)) != a:
        raise StepFailure("A @ I != A")
    checksum = sum(map(sum, tensor.matmul(a, a)))
    return f"n={n} checksum={checksum:+.6f}", []


def _attention(step, rng, args, devs):
    q, k, v = (_rand(rng, 4, 8) for _ in range(3))
    if devs.count:
        out, path = attention.launch(q, k, v, device_index=0, causal=True), "gpu:0"
    else:
        out, path = attention.attention(q, k, v, causal=True), "cpu"
    # Causal row 0 attends only to key 0, so it must equal v[0].
    if any(abs(x - y) > 1e-12 for x, y in zip(out[0], v[0])):
        raise StepFailure("causal mask broken: out[0] != v[0]")
    return f"path={path} out[0][0]={out[0][0]:+.6f}", []


def _queue_race(step, rng, args, devs, items: int = 500):
    """One consumer thread per GPU (at least 2) racing on a shared queue."""
    q = WorkQueue(maxsize=16)
    seen: list[int] = []
    lock = threading.Lock()

    def consume() -> None:
        while True:
            try:
                item = q.get(timeout=10)
            except Closed:
                return
            with lock:
                seen.append(item)

    workers = [threading.Thread(target=consume) for _ in range(max(2, args.gpus))]
    for w in workers:
        w.start()
    for i in range(items):
        q.put(i, timeout=10)
    q.close()
    for w in workers:
        w.join(timeout=10)
    if sorted(seen) != list(range(items)):
        raise StepFailure(f"lost or duplicated items: got {len(seen)}, want {items}")
    return f"workers={len(workers)} items={items}", []


def _sweep(step, rng, args, devs):
    """Softmax over growing sizes and logit scales; row sums must be 1."""
    n = 2 ** step
    logits = tensor.scale(_rand(rng, n, n), 10.0 ** step)
    worst = max(abs(sum(row) - 1.0) for row in tensor.softmax(logits))
    warnings = [f"softmax row sum off by {worst:.2e}"] if worst > 1e-9 or math.isnan(worst) else []
    return f"n={n} max_row_err={worst:.1e}", warnings


WORKLOADS: dict[str, Workload] = {
    "matmul": _matmul,
    "attention": _attention,
    "queue-race": _queue_race,
    "sweep": _sweep,
}


def _parser() -> argparse.ArgumentParser:
    def count(text: str, minimum: int) -> int:
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be >= {minimum}")
        return value

    def seconds(text: str) -> float:
        value = float(text)
        if not value >= 0:
            raise argparse.ArgumentTypeError("must be >= 0")
        return value

    p = argparse.ArgumentParser(prog="python -m tinyml.smoke", description="Run a tinyml smoke workload.")
    p.add_argument("--workload", required=True, choices=sorted(WORKLOADS))
    p.add_argument("--steps", type=lambda t: count(t, 1), default=3)
    p.add_argument("--gpus", type=lambda t: count(t, 0), default=0)
    p.add_argument("--strict", action="store_true")
    p.add_argument("--sleep", type=seconds, default=0.0)
    p.add_argument("--fail", action="store_true")
    p.add_argument("--seed", type=int, default=0)
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        devs = device.detect()
    except ValueError as exc:
        print(f"{PREFIX} error: {exc}", file=sys.stderr)
        return 2

    def say(msg: str) -> None:
        print(f"{PREFIX} {msg}", flush=True)

    say(f"workload={args.workload} steps={args.steps} gpus_needed={args.gpus} "
        f"gpus_visible={devs.count} ({devs.source})")
    if args.gpus > devs.count:
        print(f"{PREFIX} error: needs {args.gpus} GPU(s), {devs.count} visible; "
              f"run on a bigger runner or set TINYML_FAKE_GPUS={args.gpus}", file=sys.stderr, flush=True)
        return 3

    run = WORKLOADS[args.workload]
    start = time.monotonic()
    for step in range(1, args.steps + 1):
        try:
            detail, warnings = run(step, random.Random(args.seed * 1000 + step), args, devs)
            if args.fail and step == args.steps:
                raise StepFailure("injected failure (--fail)")
        except StepFailure as exc:
            print(f"{PREFIX} step {step}/{args.steps} FAILED: {exc}", file=sys.stderr, flush=True)
            print(f"{PREFIX} error: workload {args.workload} failed at step {step}", file=sys.stderr, flush=True)
            return 1
        for w in warnings:
            print(f"{PREFIX} warning: step {step}: {w}", file=sys.stderr, flush=True)
        if warnings and args.strict:
            print(f"{PREFIX} error: --strict and step {step} warned", file=sys.stderr, flush=True)
            return 1
        say(f"step {step}/{args.steps} ok {detail}")
        if args.sleep:
            time.sleep(args.sleep / args.steps)
    say(f"PASS workload={args.workload} steps={args.steps} elapsed={time.monotonic() - start:.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
