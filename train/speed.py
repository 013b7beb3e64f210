"""How much faster the batched trainer learns than the scalar one: timesteps per second of
``dugout.train.ppo`` (sb3-contrib's MaskablePPO over AEC envs) and ``dugout.train.vector_ppo``
(masked PPO over :class:`dugout.vector.ThatsBaseballVectorEnv`), That's Baseball self-play
with each trainer's defaults, measured in the same process in interleaved rounds.

    python -m dugout.train.speed                      # 3 rounds
    python -m dugout.train.speed --rounds 5 --threads 2

Each round trains the scalar trainer for ``--scalar-steps`` and the batched one for
``--vector-steps`` timesteps from scratch, without evaluations, and reads each run's
timesteps per second while learning (its ``summary.json``). The ratio is taken per round;
the median and the range are printed. Speed depends on the machine and what else runs on
it: compare figures from one run only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

__all__ = ["main"]


def one_round(scalar_steps: int, vector_steps: int, threads: int, seed: int, folder: Path) -> tuple[float, float]:
    from .ppo import Settings, train as train_scalar
    from .vector_ppo import VectorSettings, train as train_vector
    scalar = Settings.for_env("thats_baseball_v0", total_timesteps=scalar_steps, seed=seed,
                              eval_every=10**12, pool_every=max(1, scalar_steps // 2),
                              progress=False, out=str(folder / f"scalar{seed}"))
    out = train_scalar(scalar)
    s_rate = json.loads((out / "summary.json").read_text())["timesteps_per_second"]
    vector = VectorSettings(total_timesteps=vector_steps, seed=seed, eval_every=10**12,
                            eval_games=64, threads=threads, out=str(folder / f"vector{seed}"))
    out = train_vector(vector, log=lambda _text: None)
    v_rate = json.loads((out / "summary.json").read_text())["timesteps_per_second"]
    return s_rate, v_rate


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m dugout.train.speed", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scalar-steps", type=int, default=16_384)
    parser.add_argument("--vector-steps", type=int, default=1_048_576)
    parser.add_argument("--threads", type=int, default=1, help="torch threads of the batched trainer "
                        "(the scalar trainer always uses one)")
    args = parser.parse_args(argv)
    for name in ("rounds", "scalar_steps", "vector_steps", "threads"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            s_rate, v_rate = one_round(args.scalar_steps, args.vector_steps, args.threads, r, Path(tmp))
            rows.append((s_rate, v_rate, v_rate / s_rate))
            print(f"round {r + 1}: scalar {s_rate:,.0f} timesteps/s, batched {v_rate:,.0f} "
                  f"timesteps/s: {v_rate / s_rate:.1f}x", flush=True)
    ratios = [row[2] for row in rows]
    print(f"batched / scalar trainer: median {statistics.median(ratios):.1f}x "
          f"(range {min(ratios):.1f}-{max(ratios):.1f}x) over {args.rounds} rounds; scalar "
          f"median {statistics.median(r[0] for r in rows):,.0f}, batched "
          f"{statistics.median(r[1] for r in rows):,.0f} timesteps/s (torch threads: scalar 1, "
          f"batched {args.threads})")
    return {"rounds": [{"scalar": a, "batched": b, "ratio": c} for a, b, c in rows],
            "median_ratio": statistics.median(ratios)}


if __name__ == "__main__":
    main(sys.argv[1:])
