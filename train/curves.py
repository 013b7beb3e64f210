"""The learning curve every trainer writes beside its run: ``eval.csv``, a row an evaluation
(:func:`append_eval_row`), and ``learning_curve.png`` drawn from it with matplotlib when the
``plots`` extra is installed: the trainer draws its lines, this module opens the figure,
labels it and saves it."""

from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Any, Sequence

__all__ = ["append_eval_row", "new_figure", "save_curve"]


def append_eval_row(out: Path, header: Sequence[str], row: Sequence[Any]) -> None:
    """Append ``row`` to the run's ``out/eval.csv``, the ``header`` first when the file is new."""
    path = out / "eval.csv"
    new = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(header)
        w.writerow(row)


def new_figure() -> tuple[Any, Any] | None:
    """``(fig, ax)`` for a learning curve, or None (said once on stderr) without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no learning_curve.png "
              "(pip install dugout-baseball[plots])", file=sys.stderr)
        return None
    return plt.subplots(figsize=(7, 4.2), dpi=120)


def save_curve(fig: Any, ax: Any, out: Path, *, xlabel: str, ylabel: str, title: str) -> Path:
    """Label ``ax``, save the figure as ``out/learning_curve.png`` and close it; the path."""
    import matplotlib.pyplot as plt
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path = out / "learning_curve.png"
    fig.savefig(path)
    plt.close(fig)
    return path
