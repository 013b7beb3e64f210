"""The bad-argument table's rows for ``dugout pretrained``: flags that must agree
(``--checkpoint`` ships one entry and does not train or re-measure; ``--measure-only`` needs
a built manager), a checkpoint for another env, of other sizes or under other options, an
entry given twice, a search tournament of one pair. Each is refused before any training or
game, naming the flag."""

from __future__ import annotations

import json

from cli_table import Row, checkpoint


def _with_options(env_id: str, obs_size: int, n_actions: int, options: dict):
    """A checkpoint fixture ``{tmp}/run`` whose meta says it was trained under ``options``."""
    make = checkpoint(env_id, obs_size, n_actions)

    def setup(tmp):
        make(tmp)
        meta = json.loads((tmp / "run" / "meta.json").read_text())
        (tmp / "run" / "meta.json").write_text(json.dumps({**meta, "env_options": options}))
    return setup


def _grand_slam_sizes() -> tuple[int, int]:
    from dugout.agents.policy import env_sizes
    from dugout.envs import make
    return env_sizes(make("grand_slam_v0"))


_OBS, _ACTIONS = _grand_slam_sizes()

# the base argument list (the command's example) is: --entries grand_slam --games 4
ROWS = [
    Row("pretrained", ("--entries", "grand_slam", "grand_slam"), "--entries", "given twice"),
    Row("pretrained", ("--search-games", "2"), "--search-games", "at least 4"),
    Row("pretrained", ("--checkpoint", "{tmp}/run"), "--checkpoint",
        "trained on thats_baseball_v0, not grand_slam_v0", checkpoint("thats_baseball_v0", 56, 5)),
    Row("pretrained", ("--checkpoint", "{tmp}/run"), "--checkpoint", "observations of size 3",
        checkpoint("grand_slam_v0", 3, _ACTIONS)),
    Row("pretrained", ("--checkpoint", "{tmp}/run"), "--checkpoint", "innings=7",
        _with_options("grand_slam_v0", _OBS, _ACTIONS, {"innings": 7})),
    Row("pretrained", ("--checkpoint", "{tmp}/run", "--entries", "grand_slam", "showdown"),
        "--checkpoint", "one entry", checkpoint("grand_slam_v0", _OBS, _ACTIONS)),
    Row("pretrained", ("--checkpoint", "{tmp}/run", "--timesteps", "100"), "--timesteps",
        "choose one", checkpoint("grand_slam_v0", _OBS, _ACTIONS)),
    Row("pretrained", ("--checkpoint", "{tmp}/run", "--measure-only"), "--checkpoint", "choose one",
        checkpoint("grand_slam_v0", _OBS, _ACTIONS)),
    Row("pretrained", ("--measure-only", "--timesteps", "100"), "--timesteps",
        "--measure-only does not"),
    Row("pretrained", ("--measure-only", "--out", "{tmp}/empty"), "--measure-only",
        "holds no built manager"),
]
