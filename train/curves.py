"""The learning-curve plot every trainer writes beside its run (``learning_curve.png``), drawn
with matplotlib when the ``plots`` extra is installed: the trainer draws its lines, this module
opens the figure, labels it and saves it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

__all__ = ["new_figure", "save_curve"]


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
