"""What the solvers' commands print alike: a solve's memory and its saved file (``dugout
solve``), and a check's row, the solved value beside the rate of simulated games with its
99.9% normal interval (``dugout verify``)."""

from __future__ import annotations

import math
import os
import resource
import sys
from typing import Any, TextIO

__all__ = ["Z999", "report_memory_and_save", "simulated_row"]

#: The two-sided 99.9% normal quantile: a check's interval is rate +- Z999 sd / sqrt(games).
Z999 = 3.2905


def report_memory_and_save(solution: Any, save: str | os.PathLike | None) -> None:
    """Print the memory of ``solution``'s tables (its ``nbytes``) and the process's peak, then
    save it to ``save`` (its ``save(path)``) and say so, unless ``save`` is None."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"memory: tables {solution.nbytes / 2**20:.1f} MiB, process peak {peak:.0f} MiB")
    if save is not None:
        solution.save(save)
        print(f"saved to {save}")


def simulated_row(label: str, value: float, wins: int, games: int, seconds: float, *,
                  width: int, out: TextIO = sys.stdout) -> dict[str, Any]:
    """A check's row for the state ``label``: its solved ``value`` beside the rate of ``wins``
    in ``games`` simulated games, the rate's 99.9% interval (``low``, ``high``), whether the
    value lies ``inside`` it, and ``z``, the rate's distance from the value in standard
    deviations of ``games`` games won at the value's chance. Printed to ``out`` as one line
    (the label ``width`` characters wide), and returned."""
    rate = wins / games
    half = Z999 * math.sqrt(rate * (1 - rate) / games)
    row = {"state": label, "value": value, "rate": rate, "low": rate - half, "high": rate + half,
           "inside": rate - half <= value <= rate + half,
           "z": (rate - value) / math.sqrt(value * (1 - value) / games), "seconds": seconds}
    print(f"{label:{width}} solved {value:.5f}  simulated {rate:.5f} [{row['low']:.5f}, "
          f"{row['high']:.5f}]  z {row['z']:+.2f}  {'inside' if row['inside'] else 'OUTSIDE'}  "
          f"({seconds:.0f} s)", file=out, flush=True)
    return row
