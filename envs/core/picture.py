"""Pictures of a game: what ``render_mode="rgb_array"`` returns, and animated GIFs.

A ruleset turns its engine state into a :class:`Scene` (plain, frozen data: the line
score, the runners, outs, the count or the hands, who is to decide and the last play);
:func:`draw` paints any scene as an ``H x W x 3`` ``uint8`` RGB array, the same for every
ruleset, so Gymnasium's video recorder and notebooks can show a game; :func:`write_gif`
strings frames together::

    env = dugout.envs.make("grand_slam_v0", render_mode="rgb_array")
    env.reset(seed=1)
    frames = [env.render()]
    for agent in env.agent_iter():
        ...
        env.step(action)
        frames.append(env.render())
    write_gif(frames, "game.gif", fps=2)

Drawing uses matplotlib's Agg canvas on a private :class:`~matplotlib.figure.Figure` (never
pyplot), so it needs no display, touches no global state and may run in several threads.
matplotlib is an optional dependency (``pip install dugout-baseball[plots]``); it is imported only
when a picture is drawn. The GIF writer uses Pillow, which matplotlib depends on.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from .scorebook import ordinal

__all__ = ["Scene", "draw", "write_gif", "board_scene", "DEFAULT_SIZE"]

#: The picture's size in pixels, (width, height).
DEFAULT_SIZE = (640, 480)
_SIDES = ("away", "home")          # the agents, by seat (as in core.aec, not imported from it)
_MISSING = "render_mode='rgb_array' needs matplotlib: pip install dugout-baseball[plots]"


@dataclass(frozen=True)
class Scene:
    """Everything a picture of a game shows, as plain data (no engine objects).

    ``half`` is 0 for the top of ``inning`` (the away team bats), 1 for the bottom.
    ``runners[i]`` labels the runner on base ``i`` (first, second, third), or is None
    for an empty base. ``line_score`` holds each team's runs per inning played (away,
    home; the home row is one shorter while the top of an inning is played); ``runs``,
    ``hits`` and ``errors`` are the R H E columns (None where the ruleset keeps no box
    score). ``count`` is the state of the at-bat where the ruleset has one and ``hand``
    the managers' hands of cards ("" where none; one line per side). ``to_act`` says who
    is to decide and what ("home to decide: steal"), ``options`` the legal choices, and
    ``final`` the result once the game (or the episode) is over ("" until then).
    """
    title: str = ""
    series: str = ""
    teams: tuple[str, str] = ("Away", "Home")
    innings: int = 9
    inning: int = 1
    half: int = 0
    outs: int = 0
    runners: tuple[str | None, str | None, str | None] = (None, None, None)
    line_score: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    runs: tuple[int, int] = (0, 0)
    hits: tuple[int, int] | None = None
    errors: tuple[int, int] | None = None
    at_bat: str = ""
    count: str = ""
    hand: str = ""
    notes: tuple[str, ...] = ()
    to_act: str = ""
    options: tuple[str, ...] = ()
    last_play: str = ""
    final: str = ""

    def __post_init__(self) -> None:
        if len(self.runners) != 3:
            raise ValueError(f"Scene.runners needs three bases, got {self.runners!r}")
        if self.half not in (0, 1):
            raise ValueError(f"Scene.half must be 0 (top) or 1 (bottom), got {self.half!r}")
        if len(self.line_score) != 2 or len(self.teams) != 2 or len(self.runs) != 2:
            raise ValueError("Scene.line_score, teams and runs hold two sides (away, home)")


def board_scene(env, team_names: Sequence[str], *, runners: Sequence[str | None],
                last_play: str = "", **fields) -> Scene:
    """The parts of a scene every scoreboard ruleset shares, read from ``env`` (never
    changed): the board, the box score's hits and errors, the series standing, the
    pending decision and its options, and the result once the game or episode is over.
    The ruleset gives its runners' labels, the last play and any other :class:`Scene`
    field (``at_bat``, ``count``, ``hand``, ``notes``)."""
    s = env.state_
    b = s.board
    box = getattr(s, "box", None)
    series = env.series_
    names = (str(team_names[0]), str(team_names[1]))
    to_act, options, final = "", (), ""
    forfeit = _forfeit(env)
    if forfeit:
        final = forfeit
    elif s.over:
        final = env._result_line(names)
        if series is not None and series.over:
            final += " " + series.describe()
    elif s.pending is not None:
        d = s.pending
        to_act = f"{_SIDES[d.actor]} to decide: {d.kind}"
        labels = env._option_labels(d)
        options = tuple(f"{a}: {labels[a]}" for a in d.legal)
    return Scene(
        title=f"{names[0]} at {names[1]}",
        series="" if series is None else series.describe(),
        teams=names,
        innings=int(b.innings),
        inning=int(b.inning),
        half=int(b.half),
        outs=int(b.outs),
        runners=tuple(runners),
        line_score=(tuple(int(r) for r in b.line[0]), tuple(int(r) for r in b.line[1])),
        runs=(int(b.runs[0]), int(b.runs[1])),
        hits=None if box is None else (int(box.hits[0]), int(box.hits[1])),
        errors=None if box is None else (int(box.errors[0]), int(box.errors[1])),
        to_act=to_act,
        options=options,
        last_play=last_play,
        final=final,
        **fields)


def _forfeit(env) -> str:
    """The end of an episode cut short by an illegal action (``env()``'s convention)."""
    agent = getattr(env, "forfeited_by", None)
    return f"Forfeit: {agent} played an illegal action." if agent else ""


def half_name(inning: int, half: int) -> str:
    """'Top 3rd', 'Bottom 10th'."""
    return f"{'Top' if half == 0 else 'Bottom'} {ordinal(inning)}"


# -- drawing -------------------------------------------------------------------------------
_BG = "#f4f1e8"
_INK = "#1d2b36"
_MUTED = "#5b6770"
_FIELD = "#3f7f3a"
_DIRT = "#c49a6c"
_BASE = "#ffffff"
_RUNNER = "#f2c230"
_BOARD = "#16324a"
_ACCENT = "#c0392b"
_BG_RGB = (244, 241, 232)
_LAYOUT_W, _LAYOUT_H = 640.0, 480.0    # the layout's own units: pixels at 640 x 480


def _check_size(size) -> tuple[int, int]:
    try:
        w, h = size
    except (TypeError, ValueError):
        raise ValueError(f"size must be (width, height) in pixels, got {size!r}") from None
    for v in (w, h):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 64 <= v <= 4096:
            raise ValueError(f"size must be two ints from 64 to 4096 pixels, got {size!r}")
    return int(w), int(h)


def draw(scene: Scene, size: tuple[int, int] = DEFAULT_SIZE) -> np.ndarray:
    """Paint ``scene`` as an ``(height, width, 3)`` uint8 RGB array (``size`` = (width, height))."""
    width, height = _check_size(size)
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.transforms import Affine2D
    except ImportError as e:
        raise ImportError(_MISSING) from e
    # one layout unit is one pixel at 640 x 480; a larger picture scales it (text too),
    # centred where its shape differs
    scale = min(width / _LAYOUT_W, height / _LAYOUT_H)
    dpi = 100.0 * scale
    # half a pixel more, so the canvas's int() of width * dpi never loses a pixel
    fig = Figure(figsize=((width + 0.5) / dpi, (height + 0.5) / dpi), dpi=dpi, facecolor=_BG)
    canvas = FigureCanvasAgg(fig)
    ox = (width / scale - _LAYOUT_W) / 2
    oy = (height / scale - _LAYOUT_H) / 2
    # layout units (x right, y down) to display pixels (y up); artists go straight on the
    # figure: no Axes, whose making costs more than the drawing
    where = Affine2D().translate(ox, oy).scale(scale, -scale).translate(0, height + 0.5)
    _paint(_Painter(fig, where), scene)
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    out = np.array(rgba[:height, :width, :3])          # a copy: the canvas goes with the figure
    if out.shape != (height, width, 3):                # not expected: pad with the background
        full = np.empty((height, width, 3), dtype=np.uint8)
        full[...] = _BG_RGB
        full[:out.shape[0], :out.shape[1]] = out
        out = full
    return out


class _Painter:
    """Text and shapes in layout units, on a figure."""

    def __init__(self, fig, transform):
        from matplotlib import patches
        self.fig, self.t, self.patches = fig, transform, patches

    def text(self, x, y, s, size=9, color=_INK, ha="left", va="top", **kw):
        # parse_math off: a "$" in a team's or player's name is text, not mathtext
        self.fig.text(x, y, s, fontsize=size, color=color, ha=ha, va=va, transform=self.t,
                      parse_math=False, **kw)

    def rect(self, x, y, w, h, color, **kw):
        self.fig.add_artist(self.patches.Rectangle((x, y), w, h, facecolor=color,
                                                   edgecolor="none", transform=self.t, **kw))

    def poly(self, points, face, edge=_INK, lw=1.0):
        self.fig.add_artist(self.patches.Polygon(points, closed=True, facecolor=face,
                                                 edgecolor=edge, linewidth=lw, transform=self.t))

    def circle(self, x, y, r, face, edge="none", lw=1.0):
        self.fig.add_artist(self.patches.Circle((x, y), r, facecolor=face, edgecolor=edge,
                                                linewidth=lw, transform=self.t))


_MONO = "DejaVu Sans Mono"             # matplotlib's own monospace font: always there
_CELL = 3                              # characters per inning column of the line score


def _paint(p: _Painter, scene: Scene) -> None:
    final = bool(scene.final)

    # -- title lines
    p.text(12, 10, _short(scene.title, 60), size=12, weight="bold")

    # -- the line score, in a monospace font: one text per row, one column per inning
    #    (at least the scheduled ones, the last 12 in a long game), then R (H E)
    played = max(len(scene.line_score[0]), len(scene.line_score[1]))
    n = max(scene.innings, played)
    cols = list(range(max(1, n - 11), n + 1))
    totals = [("R", scene.runs)]
    if scene.hits is not None:
        totals.append(("H", scene.hits))
    if scene.errors is not None:
        totals.append(("E", scene.errors))
    name_w = 16
    rows = ["".rjust(name_w) + "".join(f"{i:>{_CELL}}" for i in cols) + "  "
            + "".join(f"{k:>{_CELL}}" for k, _ in totals)]
    for team in (0, 1):
        line = scene.line_score[team]
        cells = []
        for i in cols:
            if i - 1 < len(line):
                cells.append(f"{line[i - 1]:>{_CELL}}")
            elif final and team == 1 and i - 1 == len(line) and i - 1 < len(scene.line_score[0]):
                cells.append(f"{'x':>{_CELL}}")        # the home team did not need its last at-bat
            else:
                cells.append(" " * _CELL)
        rows.append(_short(scene.teams[team], name_w - 1).ljust(name_w) + "".join(cells) + "  "
                    + "".join(f"{v[team]:>{_CELL}}" for _, v in totals))
    char_w = 9.5 * 100 / 72 * 0.602                    # DejaVu Sans Mono's advance at 9.5 pt
    y = 42
    board_w = char_w * len(rows[0]) + 20
    p.rect(8, y - 6, board_w, 70, _BOARD)
    if not final:                                      # the half inning being played
        j = scene.inning - cols[0]
        if 0 <= j < len(cols):
            x0 = 14 + char_w * (name_w + _CELL * j + 0.6)     # the cell's digits, right-aligned
            p.rect(x0, y + 14 + 20 * scene.half, char_w * (_CELL - 0.2), 19, "#2d5a7b")
        p.rect(10, y + 14 + 20 * scene.half, 3, 19, _RUNNER)
    if scene.series:                       # the series standing, right of the line score
        x0 = 8 + board_w + 10
        chars = _chars(632 - x0, 9)
        lines = textwrap.wrap(scene.series, chars)[:4]
        p.text(x0, y - 4, "\n".join(lines), size=9, color=_ACCENT, weight="bold",
               linespacing=1.3)
    p.text(14, y, rows[0], size=9.5, color="#a9bccb", family=_MONO)
    p.text(14, y + 17, rows[1] + "\n" + rows[2], size=9.5, color="white", family=_MONO,
           linespacing=1.5)
    y += 76

    # -- the diamond, with the runners, the inning and the outs
    p.rect(8, y, 284, 262, _FIELD)
    cx, cy, r = 150.0, y + 134, 88.0
    home, first, second, third = (cx, cy + r), (cx + r, cy), (cx, cy - r), (cx - r, cy)
    p.poly([home, first, second, third], _DIRT, edge="white", lw=1.5)
    p.circle(cx, cy, 9, "#b58755")
    d = 10.0
    for i, (bx, by) in enumerate((first, second, third)):
        label = scene.runners[i]
        p.poly([(bx, by - d), (bx + d, by), (bx, by + d), (bx - d, by)],
               _RUNNER if label is not None else _BASE)
        if label:
            label = _short(label, 24)
            # first's label below its bag, second's and third's above theirs: never on
            # top of each other
            if i == 0:
                p.text(bx + 12, by + 14, label, size=7.5, color="white", ha="right", weight="bold")
            elif i == 1:
                p.text(bx, by - 14, label, size=7.5, color="white", ha="center", va="bottom",
                       weight="bold")
            else:
                p.text(bx - 12, by - 14, label, size=7.5, color="white", va="bottom",
                       weight="bold")
    hx, hy = home
    p.poly([(hx - 8, hy - 4), (hx + 8, hy - 4), (hx + 8, hy + 3), (hx, hy + 9), (hx - 8, hy + 3)],
           _BASE)
    if not final:
        p.text(18, y + 8, f"{'▲' if scene.half == 0 else '▼'} {scene.inning}", size=13,
               color="white", weight="bold")
        p.text(18, y + 254, half_name(scene.inning, scene.half), size=8, color="#dfe9dc",
               va="bottom")
    p.text(196, y + 9, "OUTS", size=8, color="#dfe9dc", weight="bold")
    for k in range(3):
        p.circle(240 + 15 * k, y + 15, 5.5, _ACCENT if k < scene.outs else "none",
                 edge="white", lw=1.2)

    # -- the right-hand column: the result, the at-bat, count, hands, notes, the decision
    x, ry = 306.0, float(y + 2)
    right = 632.0

    def para(s, size=9.0, color=_INK, max_lines=3, **kw):
        nonlocal ry
        wrap = _chars(right - x, size)
        lines: list[str] = []
        for part in s.split("\n"):
            lines.extend(textwrap.wrap(part, wrap) or [""])
        if len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = _short(lines[-1] + " …", wrap)
        p.text(x, ry, "\n".join(lines), size=size, color=color, linespacing=1.25, **kw)
        ry += len(lines) * size * 100 / 72 * 1.25 + 8

    if final:
        para(scene.final, size=12, color=_ACCENT, weight="bold", max_lines=4)
    if scene.at_bat:
        para(scene.at_bat)
    if scene.count:
        para(scene.count, color=_MUTED, max_lines=2)
    if scene.hand:
        para(scene.hand, size=8.5, max_lines=4)
    for note in scene.notes:
        para(note, size=8, color=_MUTED, max_lines=2)
    if scene.to_act:
        para(scene.to_act, size=10, color=_ACCENT, weight="bold", max_lines=2)
        # one line an option (cut short where long); the fifth line says how many more
        width = _chars(right - x, 8)
        shown = [_short(o, width) for o in scene.options[:5]]
        if len(scene.options) > 5:
            shown[-1] = f"... and {len(scene.options) - 4} more"
        if shown:
            para("\n".join(shown), size=8, color=_MUTED, max_lines=5)

    # -- the last play, across the bottom
    y = 418.0
    p.rect(8, y - 4, 624, 60, "#e6e0cf")
    p.text(16, y, "LAST PLAY", size=7, color=_MUTED, weight="bold")
    wrap = _chars(608, 8.5)
    lines = textwrap.wrap(scene.last_play, wrap) or ["(none yet)"]
    if len(lines) > 2:
        lines = lines[:2]
        lines[1] = _short(lines[1] + " …", wrap)
    p.text(16, y + 14, "\n".join(lines), size=8.5, linespacing=1.3)


def _chars(width: float, size: float) -> int:
    """About how many characters of DejaVu Sans at ``size`` points fit in ``width`` units."""
    return max(8, int(width / (size * 100 / 72 * 0.6)))


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else s[:n - 1] + "…"


# -- animated GIFs -----------------------------------------------------------------------
def write_gif(frames: Sequence[np.ndarray], path, fps: float = 2.0) -> Path:
    """Write ``frames`` (``render()`` pictures: same-shape ``H x W x 3`` uint8 arrays) as an
    animated GIF that loops, ``fps`` frames a second; returns the path.

    Consecutive identical frames are merged into one longer frame (Pillow's GIF writer).
    """
    frames = list(frames)
    if not frames:
        raise ValueError("write_gif needs at least one frame")
    if isinstance(fps, bool) or not isinstance(fps, (int, float, np.integer, np.floating)) \
            or not np.isfinite(fps) or fps <= 0:
        raise ValueError(f"write_gif: fps must be a positive number, got {fps!r}")
    shape = None
    for i, f in enumerate(frames):
        if not isinstance(f, np.ndarray) or f.dtype != np.uint8 or f.ndim != 3 or f.shape[2] != 3:
            what = (f"{f.dtype} array of shape {f.shape}" if isinstance(f, np.ndarray)
                    else type(f).__name__)
            raise ValueError(f"write_gif: frame {i} must be an H x W x 3 uint8 array "
                             f"(render_mode='rgb_array'), got a {what}")
        if f.shape[0] < 1 or f.shape[1] < 1:
            raise ValueError(f"write_gif: frame {i} is empty ({f.shape})")
        if shape is None:
            shape = f.shape
        elif f.shape != shape:
            raise ValueError(f"write_gif: frame {i} has shape {f.shape}, frame 0 has {shape}: "
                             f"every frame must have the same shape")
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError("write_gif needs Pillow (it comes with matplotlib): "
                          "pip install dugout-baseball[plots]") from e
    path = Path(path)
    # one palette for the whole animation (from up to eight frames spread over it), so
    # colours hold still from frame to frame
    sample = frames[::max(1, len(frames) // 8)][:8]
    palette = Image.fromarray(np.concatenate(sample, axis=0), "RGB").quantize(
        colors=255, method=Image.Quantize.MEDIANCUT)
    images = [Image.fromarray(np.ascontiguousarray(f), "RGB").quantize(
        palette=palette, dither=Image.Dither.NONE) for f in frames]
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:],
                   duration=max(20, int(round(1000.0 / float(fps)))), loop=0, optimize=False)
    return path
