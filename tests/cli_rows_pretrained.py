"""The bad-argument table's rows for ``dugout pretrained``: flags that must agree
(``--checkpoint`` ships one entry and does not train or re-measure; ``--measure-only`` needs
a built manager, --search-only --search-games and no other measuring flag, --cards-only
none), a checkpoint for another env, of other sizes or under other options, an
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


def _own_folder(tmp):
    """A built Grand Slam entry in ``{tmp}/out``, given again as its own --checkpoint."""
    checkpoint("grand_slam_v0", _OBS, _ACTIONS)(tmp)
    (tmp / "out").mkdir()
    (tmp / "run").rename(tmp / "out" / "grand_slam")

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
    Row("pretrained", ("--checkpoint", "{tmp}/out/grand_slam", "--out", "{tmp}/out"), "--checkpoint",
        "own folder in --out", _own_folder),
    Row("pretrained", ("--measure-only", "--timesteps", "100"), "--timesteps",
        "--measure-only does not"),
    Row("pretrained", ("--measure-only", "--out", "{tmp}/empty"), "--measure-only",
        "holds no built manager"),
    Row("pretrained", ("--cards-only", "--out", "{tmp}/empty"), "--cards-only",
        "holds no built manager"),
    Row("pretrained", ("--cards-only", "--measure-only"), "--cards-only", "choose one"),
    Row("pretrained", ("--cards-only", "--timesteps", "100"), "--timesteps", "--cards-only does not"),
    Row("pretrained", ("--cards-only",), "--games",
        "--games measures; --cards-only measures nothing"),
    Row("pretrained", ("--cards-only", "--games", "400", "--search-games", "4"), "--search-games",
        "measures; --cards-only measures nothing"),
    Row("pretrained", ("--search-only",), "--search-only", "give --search-games N"),
    Row("pretrained", ("--search-only", "--search-games", "4"), "--games",
        "--games measures what --search-only leaves as it is"),
    Row("pretrained", ("--search-only", "--search-games", "4", "--games", "400",
                       "--campaigns", "4"), "--campaigns", "--campaigns measures what --search-only leaves as it is"),
    Row("pretrained", ("--search-only", "--search-games", "4", "--measure-only"), "--search-only",
        "--search-only and --measure-only: choose one"),
    Row("pretrained", ("--search-only", "--search-games", "4", "--cards-only"), "--search-only",
        "--search-only and --cards-only: choose one"),
    Row("pretrained", ("--search-only", "--search-games", "4", "--timesteps", "100"), "--timesteps",
        "--search-only does not"),
    Row("pretrained", ("--search-only", "--search-games", "4", "--out", "{tmp}/empty"),
        "--search-only", "holds no built manager"),
    Row("pretrained", ("--timesteps", "100"), "--timesteps",
        "none of the chosen entries trains by timesteps (grand_slam: expert iteration, "
        "8 round(s))"),
    Row("pretrained", ("--entries", "thats_baseball", "showdown_expert", "--timesteps", "100"),
        "--timesteps", "(thats_baseball: the exact solver distilled, showdown_expert: the "
                       "heuristic cloned, 1 round(s))"),
    Row("pretrained", ("--markdown", "{tmp}/page.md"), "--markdown", "generated block must be one line",
        lambda tmp: (tmp / "page.md").write_text("<!-- generated by dugout pretrained -->\n")),
]
