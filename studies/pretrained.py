"""Build the pretrained managers dugout ships (``make_agent(env_id, "pretrained")``): train
each by its recipe, measure it, and write its folder and model card.

    dugout pretrained                                   # every entry: train, measure, write
    dugout pretrained --entries showdown --timesteps 300000
    dugout pretrained --entries grand_slam --checkpoint runs/exit/model   # ship a checkpoint
    dugout pretrained --entries pokemon_baseball --measure-only --games 400
    dugout pretrained --entries grand_slam --search-only --search-games 400 --workers 2
    dugout pretrained --cards-only --markdown docs/managers.md   # the cards and docs' table again

(``python -m dugout.studies.pretrained`` is the same.) Each entry of :data:`ENTRIES` is one
ruleset and option set (MLB Showdown's advanced game and its expert game with decks are two
entries) with its recipe: the trainer and the ruleset's best known settings
(:mod:`dugout.train.configs`, the heuristic as a teacher that stays on where that is the
recipe), at the entry's timesteps (``--timesteps`` overrides them); That's Baseball's is
distilled from the exact solver (``dugout train distill``: its epochs over every solved
state, which ``--timesteps`` does not change), Grand Slam's is expert iteration with the
search (``dugout train exit``: its rounds of search games) and MLB Showdown's expert game's
the heuristic cloned (``dugout train exit --expert heuristic``: its rounds of the
heuristic's games); ``--timesteps`` changes neither. ``--checkpoint PATH`` ships an existing
checkpoint folder instead of training (another trainer's, e.g. expert iteration's: the same
``meta.json`` + ``policy.pt``); it must have been trained on the entry's env and options.

For each entry the script writes into ``--out`` (the package's own
``dugout/agents/pretrained`` by default) a folder ``<entry>/`` holding

    meta.json          the checkpoint's meta, with ``pretrained``: the entry, the env's
                       options it was trained on and the options it covers
    policy.pt          the actor's weights, tensors only
    measurements.json  every figure measured, with the command and the date
    MODEL_CARD.md      the card, written from measurements.json (:func:`card_text`)

The measurements: seat-swapped tournaments against random and the heuristic (``--games``
games each, the 95% interval over pairs), against the search manager with
``--search-games`` (0, the default, leaves it out: a search game costs up to a minute;
``--search-only --search-games N`` adds that row to managers already built, keeping their
other figures, and ``--measure-only`` without ``--search-games`` keeps it);
That's Baseball's exact gap to the optimal manager in each seat (the solver's tables);
Bottom of the 9th's duel's exact exploitability in each seat; the Manager Challenge's mean
Manager Points over ``--campaigns`` campaigns beside the heuristic's and random's on the
same seeds. ``--markdown FILE`` writes the table of every manager in ``--out`` into the
file's generated block (the docs' table: never edited by hand). Training runs go into ``--work`` (``runs/pretrained/<entry>``); only the two
safe files of the run's final checkpoint are shipped, never ``model.zip``.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..cli import args
from ._generated import GeneratedBlock

__all__ = ["Entry", "ENTRIES", "entry_settings", "configure", "check", "run", "main", "card_text",
           "build_entry", "measure_entry", "default_out", "markdown_block", "shipped_measurements",
           "check_checkpoint_fits"]


@dataclass(frozen=True)
class Entry:
    """A shipped manager: the folder ``name``, its env and the options it is trained on, its
    trainer (``ppo``: :mod:`dugout.train.ppo` with the ruleset's configs; ``vector``:
    :mod:`dugout.train.vector_ppo`; ``challenge``: :mod:`dugout.train.single`; ``distill``:
    :mod:`dugout.train.distill`, the exact solver's policy learned, no timesteps; ``exit``:
    :mod:`dugout.train.exit`, with ``expert="heuristic"`` the heuristic's choices cloned, no
    timesteps), the timesteps of the shipped run and the settings over the trainer's
    defaults."""
    name: str
    title: str
    env_id: str
    options: dict[str, Any]
    trainer: str
    timesteps: int
    overrides: dict[str, Any] = field(default_factory=dict)


#: The entries, in the order they are built (the cheap ones first).
ENTRIES: dict[str, Entry] = {e.name: e for e in [
    Entry("thats_baseball", "That's Baseball", "thats_baseball_v0", {}, "distill", 0,
          {"net_arch": (128, 128), "epochs": 6}),
    Entry("grand_slam", "Harry's Grand Slam", "grand_slam_v0", {}, "exit", 0,
          {"rounds": 8, "games": 50, "sims": 16, "eval_games": 400}),
    Entry("pokemon_baseball", "Pokemon Baseball", "pokemon_baseball_v0", {}, "ppo", 300_000),
    Entry("bottom_ninth", "Bottom of the 9th (duel)", "bottom_ninth_v0", {}, "distill", 0,
          {"net_arch": (256, 256), "epochs": 60, "batch_size": 256, "learning_rate": 1e-3,
           "val_share": 0.0}),
    Entry("bottom_ninth_longer", "Bottom of the 9th (Longer Game)", "bottom_ninth_v0",
          {"mode": "game"}, "ppo", 1_500_000, {"eval_every": 100_000}),
    Entry("showdown", "MLB Showdown (advanced)", "showdown_v0", {}, "ppo", 1_500_000,
          {"eval_every": 100_000, "net_arch": (128, 128), "teacher_coef": 10.0,
           "teacher_fraction": 10.0}),
    Entry("manager_challenge", "The Manager Challenge", "manager_challenge_v0", {}, "challenge",
          2_000_000, {"eval_every": 100_000, "net_arch": (256, 256), "teacher": "heuristic",
                      "teacher_coef": 10.0, "teacher_fraction": 10.0}),
    Entry("showdown_expert", "MLB Showdown (expert, decks)", "showdown_v0",
          {"level": "expert", "decks": "default"}, "exit", 0,
          {"expert": "heuristic", "rounds": 1, "games": 3000, "net_arch": (256, 256), "epochs": 6,
           "batch_size": 512, "workers": 2}),
]}
#: The trainers that take no timesteps (``--timesteps`` does not change them)
NO_TIMESTEPS = ("distill", "exit")
#: Options a pretrained manager plays under whatever their value: the game's cut-offs,
#: which end a game early and change nothing a manager sees before.
COVERED = ("max_innings", "max_decisions")
CARD = "MODEL_CARD.md"
MEASUREMENTS = "measurements.json"
#: The first pair's seed of the measuring tournaments (apart from the training's own).
SEED = 0


def default_out() -> Path:
    """The package's folder of pretrained managers (the source tree's, when editable)."""
    from ..agents import pretrained
    return Path(pretrained.__file__).resolve().parent


# -- training ----------------------------------------------------------------------------------
def entry_settings(entry: Entry, timesteps: int, seed: int, out: Path) -> Any:
    """The settings ``entry``'s trainer is run with to train it into ``out`` (its recipe:
    the ruleset's configs, the entry's overrides, ``timesteps`` where the trainer takes
    them)."""
    options = dict(entry.options)
    if entry.trainer == "distill":
        from ..train.distill import DistillSettings
        return DistillSettings(env=entry.env_id, seed=seed, out=str(out / "model"),
                               **entry.overrides)
    if entry.trainer == "vector":
        from ..train.vector_ppo import VectorSettings
        return VectorSettings(total_timesteps=timesteps, seed=seed, out=str(out), **entry.overrides)
    if entry.trainer == "exit":
        from ..train.exit import ExitSettings
        return ExitSettings(env=entry.env_id, seed=seed, out=str(out), env_options=options,
                            **entry.overrides)
    if entry.trainer == "challenge":
        from ..train.single import SingleSettings
        return SingleSettings(env=entry.env_id, total_timesteps=timesteps, seed=seed, out=str(out),
                              env_options=options, progress=False, **entry.overrides)
    from ..train.ppo import Settings
    return Settings.for_env(entry.env_id, total_timesteps=timesteps, seed=seed, out=str(out),
                            env_options=options, progress=False, **entry.overrides)


#: Each trainer's training function: its module under :mod:`dugout.train` and its name there
#: (it takes the settings :func:`entry_settings` gives).
_TRAIN = {"ppo": ("ppo", "train"), "vector": ("vector_ppo", "train"),
          "challenge": ("single", "train_single"), "distill": ("distill", "train"),
          "exit": ("exit", "train")}


def _train(entry: Entry, timesteps: int, seed: int, work: Path) -> Path:
    """Train ``entry`` by its recipe into ``work/<entry>``; the checkpoint folder."""
    out = work / entry.name
    if out.exists():                # an earlier training run of the entry's (or nothing)
        if any(out.iterdir()) and not (out / "model" / "meta.json").is_file():
            raise SystemExit(f"dugout pretrained: {out} is not an earlier training run; "
                             f"choose another --work or remove it")
        shutil.rmtree(out)
    module, function = _TRAIN[entry.trainer]
    getattr(importlib.import_module(f"..train.{module}", __package__),
            function)(entry_settings(entry, timesteps, seed, out))
    return out / "model"


def _recipe(meta: dict[str, Any], entry: Entry, source: str) -> dict[str, Any]:
    """What made the checkpoint, from its meta: the trainer and its settings (the run's
    folder left out)."""
    settings = {k: v for k, v in (meta.get("settings") or {}).items()
                if k not in ("out", "progress", "resume")}
    trainer = meta.get("trainer", meta.get("algo", entry.trainer if source == "trained"
                                            else "unknown"))
    recipe = {"source": source, "trainer": trainer, "timesteps": meta.get("timesteps"),
              "settings": settings, "play": meta.get("play", "greedy")}
    if trainer == "exit":
        recipe["made_by"] = _exit_command(entry, settings)
    if trainer == "challenge" and source == "checkpoint":
        recipe["made_by"] = _challenge_command(entry, settings)
        recipe["made_in"] = f"runs/challenge_{entry.name}/model"
    if trainer == "distill":
        recipe["made_by"] = _distill_command(entry, settings)
        recipe["made_in"] = f"runs/distill_{entry.name}"
        recipe["samples"] = (meta.get("fit") or {}).get("train_rows")
        recipe["dataset"] = meta.get("dataset")
    return recipe


#: ``dugout train exit``'s flags a card's command spells out
_EXIT_FLAGS = ("rounds", "expert", "games", "sims", "horizon", "rollout", "opponent", "target",
               "temperature", "replay", "epochs", "batch_size", "learning_rate", "val_share",
               "eval_games", "seed")


def _run_command(prog: str, settings_class: type, settings: dict[str, Any], keys: tuple[str, ...],
                 size: tuple[str, ...], out: str, env_options: bool = True) -> str:
    """The training run that made a checkpoint, as a command into ``out``: ``prog``, each
    flag of ``keys`` whose value is not the settings class's default, the ``size`` flags
    always, a non-default net, and the env's options."""
    import dataclasses as dc
    defaults = {f.name: f.default for f in dc.fields(settings_class)}
    parts = [prog]
    for key in keys:
        value = settings.get(key, defaults[key])
        if value is not None and (value != defaults[key] or key in size):
            flag = "--timesteps" if key == "total_timesteps" else f"--{key.replace('_', '-')}"
            parts += [flag, str(value)]
    if settings.get("net_arch") and list(settings["net_arch"]) != list(defaults["net_arch"]):
        parts += ["--net-arch", *map(str, settings["net_arch"])]
    for key, value in ((settings.get("env_options") or {}).items() if env_options else ()):
        parts += ["--env-option", f"{key}={json.dumps(value)}"]
    return " ".join(parts + ["--out", out])


def _exit_command(entry: Entry, settings: dict[str, Any]) -> str:
    """The expert-iteration run that made a checkpoint (into runs/exit_<entry>)."""
    from ..train.exit import ExitSettings
    cloning = settings.get("expert") == "heuristic"
    keys = tuple(k for k in _EXIT_FLAGS if not (cloning and k in _UNUSED_IN_CLONING))
    return _run_command(f"dugout train exit --env {entry.env_id}", ExitSettings, settings, keys,
                        ("rounds", "games") if cloning else ("rounds", "games", "sims"),
                        f"runs/exit_{entry.name}")


#: expert iteration's settings that behaviour cloning (``--expert heuristic``) does not use
_UNUSED_IN_CLONING = ("sims", "horizon", "rollout", "target", "temperature")


#: ``dugout train distill``'s flags a card's command spells out
_DISTILL_FLAGS = ("epochs", "batch_size", "learning_rate", "activation", "val_share", "sample", "seed")


def _distill_command(entry: Entry, settings: dict[str, Any]) -> str:
    """The distillation that made a checkpoint (into runs/distill_<entry>)."""
    from ..train.distill import DistillSettings
    return _run_command(f"dugout train distill --env {entry.env_id}", DistillSettings, settings,
                        _DISTILL_FLAGS, ("epochs",), f"runs/distill_{entry.name}", env_options=False)


#: ``dugout train challenge``'s flags a card's command spells out
_CHALLENGE_FLAGS = ("total_timesteps", "seed", "n_envs", "n_steps", "batch_size", "n_epochs",
                    "learning_rate", "gamma", "gae_lambda", "ent_coef", "teacher", "teacher_coef",
                    "teacher_fraction", "eval_every", "eval_campaigns")


def _challenge_command(entry: Entry, settings: dict[str, Any]) -> str:
    """The Manager Challenge run that made a checkpoint (into runs/challenge_<entry>)."""
    from ..train.single import SingleSettings
    return _run_command("dugout train challenge", SingleSettings, settings, _CHALLENGE_FLAGS,
                        ("total_timesteps",), f"runs/challenge_{entry.name}")


def _trained_options(meta: dict[str, Any]) -> dict[str, Any]:
    return dict(meta.get("env_options", (meta.get("settings") or {}).get("env_options")) or {})


def check_checkpoint_fits(entry: Entry, path: str | Path) -> dict[str, Any]:
    """``path`` as a checkpoint for ``entry``: it loads (meta.json and tensors only), was made
    for the entry's env, and under the entry's options (a ``ValueError`` naming what
    differs). Its meta."""
    from ..agents.policy import PolicyAgent, check_fits
    from ..agents.pretrained import options_differ
    from ..envs import make
    agent = PolicyAgent.load(path, env_id=entry.env_id)
    differ = options_differ(entry.env_id, entry.options, _trained_options(agent.meta))
    if differ:
        raise ValueError(f"{path} was not trained on the options of the entry {entry.name}: it has "
                         f"{differ.replace('but it was trained with', 'the entry plays')}")
    check_fits(agent, str(path), entry.env_id, make(entry.env_id, **entry.options), entry.options)
    return agent.meta


def _strip_run_folder(meta: dict[str, Any]) -> None:
    """The run's folder, in every form a trainer wrote it (as given, absolute, resolved),
    replaced by ``<run>`` in the meta's texts (expert iteration's rollout=ppo:PATH)."""
    run = meta.get("run")
    if not isinstance(run, str) or not run:
        return
    forms = sorted({run, str(Path(run).absolute()), str(Path(run).resolve())}, key=len,
                   reverse=True)
    for key, value in list(meta.items()):
        if isinstance(value, str):
            for form in forms:
                value = value.replace(form, "<run>")
            meta[key] = value


def _refuse_machine_paths(meta: Any, file: Path) -> None:
    """A ``ValueError`` when any text of ``meta`` (searched through) still names an absolute
    path: the package ships nothing that names the machine it was built on."""
    if isinstance(meta, str):
        if _ABSOLUTE.search(meta):
            raise ValueError(f"{file}: {meta!r} names a folder of this machine; the shipped meta "
                             f"may not")
    elif isinstance(meta, dict):
        for value in meta.values():
            _refuse_machine_paths(value, file)
    elif isinstance(meta, list):
        for value in meta:
            _refuse_machine_paths(value, file)


#: An absolute path in a text: /x/... at its start or after a space, '=' or ':' (ppo:/x/...),
#: or a drive letter's C:\
_ABSOLUTE = re.compile(r"(^|[\s=:])/[^/\s]+/|\b[A-Za-z]:\\")


def build_entry(entry: Entry, folder: Path, checkpoint: str | Path, source: str) -> dict[str, Any]:
    """Copy the checkpoint's two safe files into ``folder`` (its meta rewritten: no machine
    paths, the ``pretrained`` record added); the recipe it records."""
    import torch
    from ..agents.policy import META, WEIGHTS
    checkpoint = Path(checkpoint)
    meta = json.loads((checkpoint / META).read_text())
    state = torch.load(checkpoint / WEIGHTS, map_location="cpu", weights_only=True)  # (before
    _strip_run_folder(meta)                             # the folder is emptied: it may be it)
    meta["run"] = f"pretrained/{entry.name}"
    if isinstance(meta.get("settings"), dict):
        meta["settings"] = {k: v for k, v in meta["settings"].items() if k not in ("out",)}
    meta["env_options"] = _trained_options(meta)
    meta["pretrained"] = {"entry": entry.name, "env_options": dict(entry.options),
                          "covered_options": list(COVERED)}
    _refuse_machine_paths(meta, checkpoint / META)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.iterdir():
        if stale.is_file():
            stale.unlink()
    torch.save({k: v.to(torch.float16).contiguous() for k, v in state.items()}, folder / WEIGHTS)
    (folder / META).write_text(json.dumps(meta, indent=2) + "\n")
    return _recipe(meta, entry, source)


# -- measuring ---------------------------------------------------------------------------------
_KEPT = ("games", "a_score", "a_score_low", "a_score_high", "verdict", "a_run_diff",
         "a_away_win_rate", "a_home_win_rate")


def _matchup(entry: Entry, folder: Path, opponent: str, games: int,
             workers: int = 1) -> dict[str, Any]:
    from ..evaluate.tournament import run_tournament
    t0 = time.perf_counter()
    result = run_tournament(entry.env_id, [f"ppo:{folder}", opponent], games, seed=SEED,
                            workers=workers, env_kwargs=dict(entry.options), bootstrap=0)
    summary = result.matchups[0].summary()
    return {"opponent": opponent, **{k: summary[k] for k in _KEPT},
            "seconds": round(time.perf_counter() - t0, 1)}


#: The search manager a card's search row is measured against (its default settings).
SEARCH = "search"


def _search(entry: Entry, folder: Path, games: int, workers: int = 1) -> dict[str, Any]:
    """The manager against the search: a seat-swapped tournament of ``games`` games; the
    Manager Challenge's ``games`` campaigns of each on the same seeds instead, its Manager
    Points a campaign minus the search's (95% interval over campaigns)."""
    if entry.env_id != "manager_challenge_v0":
        return _matchup(entry, folder, SEARCH, games, workers)
    from .strength import measure_challenge
    r = measure_challenge(dict(entry.options), [f"ppo:{folder}", SEARCH], games, seed=SEED,
                          workers=workers)
    return {"opponent": "search", "campaigns": games, "mp": r["a_mp_diff"],
            "mp_low": r["a_mp_diff_low"], "mp_high": r["a_mp_diff_high"],
            "pretrained_mp": r["a_mp"], "search_mp": r["b_mp"], "seconds": round(r["seconds"], 1)}


def _gap(folder: Path) -> dict[str, Any]:
    """That's Baseball: the exact gap to the optimal manager in each seat (default teams)."""
    from ..agents.policy import PolicyAgent
    from ..agents.solvers.thats_baseball.evaluation import gap_to_optimal
    from ..agents.solvers.thats_baseball.solution import solve
    solution = solve("sample", "reds", innings=9)
    gap = gap_to_optimal(solution, PolicyAgent.load(folder, env_id="thats_baseball_v0"))
    return {"teams": ["sample", "reds"], "innings": 9, "game_value": solution.game_value,
            "win_as_away": gap.away, "win_as_home": gap.home,
            "gap_as_away": gap.gap_away, "gap_as_home": gap.gap_home,
            "command": "dugout solve thats_baseball --agents ppo:PATH"}


def _exploitability(folder: Path) -> dict[str, Any]:
    """Bottom of the 9th's duel: the exact exploitability in each seat (default teams)."""
    from ..agents.policy import PolicyAgent
    from ..agents.solvers.bottom_ninth.evaluation import exploitability
    from ..agents.solvers.bottom_ninth.solution import solve
    solution = solve(teams="default")
    e = exploitability(solution, PolicyAgent.load(folder, env_id="bottom_ninth_v0"))
    return {"game_value": e.game_value, "pitching_vs_equilibrium": e.pitcher_vs_equilibrium,
            "pitching_vs_best_response": e.pitcher_vs_best,
            "batting_vs_equilibrium": e.batter_vs_equilibrium,
            "batting_vs_best_response": e.batter_vs_best,
            "exploitability_pitching": e.as_pitcher, "exploitability_batting": e.as_batter,
            "command": "dugout solve bottom_ninth --agents ppo:PATH"}


def _campaigns(entry: Entry, folder: Path, campaigns: int) -> dict[str, Any]:
    """The Manager Challenge: mean Manager Points of the manager, the heuristic and random on
    the same ``campaigns`` seeds, with 95% intervals, and the paired differences."""
    from ..agents import make_agent
    from ..agents.manager_challenge import play_campaign
    from ..envs import make
    from ..evaluate.manager_challenge import paired_difference
    from ..evaluate.stats import mean_interval
    env = make(entry.env_id, **entry.options)
    seeds = range(SEED, SEED + campaigns)
    rows = {}
    for name in (f"ppo:{folder}", "heuristic", "random"):
        agent = make_agent(entry.env_id, name, 0)
        rows["pretrained" if name.startswith("ppo:") else name] = [
            play_campaign(env, agent, s) for s in seeds]
    out: dict[str, Any] = {"campaigns": campaigns}
    for name, results in rows.items():
        mp, low, high = mean_interval([r["mp"] for r in results])
        out[name] = {"mp": mp, "mp_low": low, "mp_high": high,
                     "wins": sum(r["wins"] for r in results) / campaigns}
    for other in ("heuristic", "random"):
        out[f"minus_{other}"] = paired_difference(rows["pretrained"], rows[other])
    return out


def measure_entry(entry: Entry, folder: Path, games: int, search_games: int,
                  campaigns: int, workers: int = 1) -> dict[str, Any]:
    """Every figure of ``entry``'s card, measured on the checkpoint in ``folder``
    (``search_games`` 0: not against the search)."""
    from ..agents.policy import WEIGHTS
    figures: dict[str, Any] = {"weights_bytes": (folder / WEIGHTS).stat().st_size}
    figures["search"] = _search(entry, folder, search_games, workers) if search_games else None
    if entry.env_id == "manager_challenge_v0":
        figures["challenge"] = _campaigns(entry, folder, campaigns)
        return figures
    figures["matchups"] = [_matchup(entry, folder, opponent, games, workers)
                           for opponent in ("random", "heuristic")]
    if entry.env_id == "thats_baseball_v0":
        figures["gap"] = _gap(folder)
    if entry.env_id == "bottom_ninth_v0" and entry.options.get("mode", "duel") == "duel":
        figures["exploitability"] = _exploitability(folder)
    return figures


# -- the card ----------------------------------------------------------------------------------
#: How the card names each trainer (a checkpoint's meta ``trainer``, or the entry's).
TRAINERS = {"ppo": "MaskablePPO self-play (`dugout train`)",
            "vector_ppo": "batched masked PPO (`dugout train vector`)",
            "vector": "batched masked PPO (`dugout train vector`)",
            "challenge": "MaskablePPO (`dugout train challenge`)",
            "exit": "expert iteration (`dugout train exit`)",
            "distill": "distillation of the exact solver (`dugout train distill`)"}


def _trainer(recipe: dict[str, Any]) -> str:
    name = recipe["trainer"]
    if name == "exit" and recipe["settings"].get("expert") == "heuristic":
        return "behaviour cloning of the heuristic (`dugout train exit --expert heuristic`)"
    return TRAINERS.get(name, f"`{name}`")


def _length(recipe: dict[str, Any]) -> str:
    """How long it trained, in the trainer's terms: timesteps, expert iteration's rounds, or
    distillation's epochs over the solver's states."""
    if recipe["trainer"] == "distill":
        samples = recipe.get("samples")
        return (f"{recipe['settings'].get('epochs')} epochs over "
                f"{f'{samples:,} rows of' if isinstance(samples, int) else ''} the exact "
                f"solver's states")
    if recipe["trainer"] == "exit":
        st = recipe["settings"]
        rounds, who = st.get("rounds"), st.get("expert", "search")
        learned = "" if rounds == 1 else " in the last"
        return (f"{rounds} round{'s' if rounds != 1 else ''} of {st.get('games'):,} {who} games "
                f"({recipe['timesteps']:,} decisions learned{learned})")
    return f"{recipe['timesteps']:,} timesteps"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _verdict(m: dict[str, Any]) -> str:
    if m["a_score_low"] > 0.5:
        return f"better than {m['opponent']}"
    if m["a_score_high"] < 0.5:
        return f"worse than {m['opponent']}"
    return "no significant difference"


def _options_text(options: dict[str, Any]) -> str:
    if not options:
        return "the env's defaults (no option given)"
    return ", ".join(f"`{k}={json.dumps(v)}`" for k, v in sorted(options.items()))


def card_text(m: dict[str, Any]) -> str:
    """The model card of a pretrained manager, written from its measurements (the JSON
    :func:`run` writes beside it): the same JSON always gives the same card."""
    recipe = m["recipe"]
    lines = [f"# Pretrained manager: {m['title']} (`{m['env_id']}`)", "",
             f"*Written by `dugout pretrained` from `{MEASUREMENTS}` beside it; do not edit by "
             f"hand: run the command again.*", "",
             f"Play it as `make_agent(\"{m['env_id']}\", \"pretrained\")` or `--agents pretrained`.",
             "", "## What it was trained on", "",
             f"- env: `{m['env_id']}`",
             f"- options: {_options_text(m['env_options'])}",
             f"- also covered (options that may take any value): "
             f"{', '.join(f'`{k}`' for k in m['covered_options'])}",
             "- any other option, or another value of these, is refused with an error naming the "
             "option", "", "## Recipe", ""]
    if recipe["source"] == "trained":
        lines.append(f"Trained by `dugout pretrained` with {_trainer(recipe)} for "
                     f"{_length(recipe)}.")
    else:
        lines.append(f"An existing checkpoint shipped as it is (trainer: "
                     f"{_trainer(recipe)}, {_length(recipe)}).")
    keys = ("net_arch", "learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda",
            "ent_coef", "shaping", "teacher", "teacher_coef", "teacher_fraction", "opponent", "seed",
            "num_envs", "num_steps", "update_epochs", "num_minibatches", "teams", "innings",
            "rounds", "expert", "games", "sims", "rollout", "target", "replay", "epochs",
            "activation", "sample")
    cloning = recipe["trainer"] == "exit" and recipe["settings"].get("expert") == "heuristic"
    shown = [f"`{k}={json.dumps(recipe['settings'][k])}`" for k in keys if k in recipe["settings"]
             and not (k == "sample" and recipe["settings"][k] is None)
             and not (cloning and k in _UNUSED_IN_CLONING)]
    if shown:
        lines += ["", "Settings: " + ", ".join(shown) + "."]
    if isinstance(recipe.get("dataset"), dict):
        d = recipe["dataset"]
        lines += ["", "Data: " + "; ".join(f"{k}: {d[k]}" for k in ("rows", "obs", "target", "weight")
                                             if k in d) + "."]
    made_by = [recipe["made_by"]] if recipe.get("made_by") else []
    searched = [m["search_command"]] if m.get("search") and m.get("search_command") else []
    lines += ["", "The commands that made it:" if made_by or searched else
              "The command that made it:", "",
              "```bash", *made_by, m["command"], *searched, "```",
              "", f"Measured {m['date']}; weights {m['weights_bytes'] / 1024:.0f} KiB (stored as float16, "
              f"played as float32: every figure below is of the weights as shipped).", "",
              "## Scores", ""]
    if "challenge" in m:
        c = m["challenge"]
        lines += [f"Mean Manager Points over the same {c['campaigns']:,} campaigns (seeds "
                  f"{SEED} to {SEED + c['campaigns'] - 1}), 95% intervals:", "",
                  "| manager | Manager Points (95% interval) | wins a campaign |",
                  "|---|---|---:|"]
        for name in ("pretrained", "heuristic", "random"):
            r = c[name]
            lines.append(f"| {name} | {r['mp']:.1f} ({r['mp_low']:.1f} to {r['mp_high']:.1f}) | "
                         f"{r['wins']:.2f} |")
        lines.append("")
        for other in ("heuristic", "random"):
            d = c[f"minus_{other}"]
            word = ("more than the" if d["mp_low"] > 0 else "fewer than the" if d["mp_high"] < 0
                    else "no significant difference from the")
            name = {"random": "random manager"}.get(other, other)
            lines.append(f"- against {other} on the same campaigns: {d['mp']:+.1f} Manager Points "
                         f"({d['mp_low']:+.1f} to {d['mp_high']:+.1f}): {word} {name}"
                         + ("" if word.startswith("no") else "'s") + ".")
        lines.append(_challenge_search_line(m))
        return "\n".join(lines) + "\n"
    lines += ["Seat-swapped tournaments (every seed played twice, the seats swapped; the interval is "
              "95% over pairs):", "",
              "| opponent | games | score (95% interval) | verdict | as away | as home | run diff/game |",
              "|---|---:|---|---|---:|---:|---:|"]
    rows = list(m["matchups"]) + ([m["search"]] if m.get("search") else [])
    for r in rows:
        lines.append(f"| {r['opponent']} | {r['games']:,} | {_pct(r['a_score'])} "
                     f"({_pct(r['a_score_low'])}-{_pct(r['a_score_high'])}) | {_verdict(r)} | "
                     f"{_pct(r['a_away_win_rate'])} | {_pct(r['a_home_win_rate'])} | "
                     f"{r['a_run_diff']:+.2f} |")
    if not m.get("search"):
        lines += ["", f"Against the search manager: not measured (a search game costs up to a "
                  f"minute; `{_search_command(m['entry'], 'N')}` adds the row)."]
    elif m.get("search_command"):
        lines += ["", f"Against the search manager (its default settings): measured "
                  f"{m['search_date']} by `{m['search_command']}`."]
    heuristic = next(r for r in m["matchups"] if r["opponent"] == "heuristic")
    word = (_verdict(heuristic).replace("no significant difference",
                                        "not significantly different from the heuristic")
            .replace("than heuristic", "than the heuristic"))
    lines += ["", f"Against the heuristic it is **{word}** ({_pct(heuristic['a_score'])} in "
              f"{heuristic['games']:,} games)."]
    if "gap" in m:
        g = m["gap"]
        lines += ["", "## Gap to optimal (exact)", "",
                  f"Against the optimal manager (the exact solver, {g['teams'][0]} at "
                  f"{g['teams'][1]}, {g['innings']} innings; game value {g['game_value']:.6f}, the "
                  f"home side's win probability), in percentage points of win probability given "
                  f"away (`{g['command']}`):", "",
                  "| seat | win probability | gap to optimal |", "|---|---:|---:|",
                  f"| away | {g['win_as_away']:.5f} | {100 * g['gap_as_away']:.4f} |",
                  f"| home | {g['win_as_home']:.5f} | {100 * g['gap_as_home']:.4f} |"]
    if "exploitability" in m:
        e = m["exploitability"]
        lines += ["", "## Exploitability (exact)", "",
                  f"The duel solved (game value {e['game_value']:.4f}, the batting side's win "
                  f"probability); what a best response gains over the game value against this "
                  f"manager, {_how_played(m)} (`{e['command']}`):", "",
                  "| seat | vs equilibrium | vs best response | exploitability |",
                  "|---|---:|---:|---:|",
                  f"| pitching (away) | {e['pitching_vs_equilibrium']:.4f} | "
                  f"{e['pitching_vs_best_response']:.4f} | {e['exploitability_pitching']:.4f} |",
                  f"| batting (home) | {e['batting_vs_equilibrium']:.4f} | "
                  f"{e['batting_vs_best_response']:.4f} | {e['exploitability_batting']:.4f} |"]
    return "\n".join(lines) + "\n"


def _search_command(entry: str, games: int | str) -> str:
    """The command that measures a built manager against the search, keeping its other figures."""
    return f"dugout pretrained --entries {entry} --search-only --search-games {games}"


def _challenge_search_line(m: dict[str, Any]) -> str:
    s = m.get("search")
    if not s:
        return (f"- against the search manager: not measured (a search campaign costs about half a "
                f"minute; `{_search_command(m['entry'], 'N')}` adds it).")
    word = ("more than the search's" if s["mp_low"] > 0 else "fewer than the search's"
            if s["mp_high"] < 0 else "no significant difference from the search")
    when = (f", measured {m['search_date']} by `{m['search_command']}`"
            if m.get("search_command") else "")
    return (f"- against the search manager (its default settings) on the same {s['campaigns']:,} "
            f"campaigns: {s['mp']:+.1f} Manager Points ({s['mp_low']:+.1f} to "
            f"{s['mp_high']:+.1f}), {s['pretrained_mp']:.1f} against {s['search_mp']:.1f}: "
            f"{word}{when}.")


def _how_played(m: dict[str, Any]) -> str:
    """How the exact evaluation plays the manager: its most likely action, or its mix."""
    recipe = m["recipe"]
    if recipe.get("play", (recipe.get("dataset") or {}).get("play")) == "sample":
        return ("sampling its policy (`\"play\": \"sample\"` in its meta) as tournaments play it: "
                "the exact evaluation takes its probabilities")
    return "played greedily as tournaments play it"


# -- the docs' table ----------------------------------------------------------------------------
MARKDOWN_BEGIN = "<!-- generated by dugout pretrained -->"
MARKDOWN_END = "<!-- end of dugout pretrained's block -->"
BLOCK = GeneratedBlock(MARKDOWN_BEGIN, MARKDOWN_END, "# Pretrained managers")


def _score_cell(m: dict[str, Any], opponent: str) -> str:
    if "challenge" in m:
        d = m["challenge"][f"minus_{opponent}"]
        return f"{d['mp']:+.1f} MP ({d['mp_low']:+.1f} to {d['mp_high']:+.1f})"
    r = next(r for r in m["matchups"] if r["opponent"] == opponent)
    return f"{_pct(r['a_score'])} ({_pct(r['a_score_low'])}-{_pct(r['a_score_high'])}), {r['games']:,} games"


def _search_cell(m: dict[str, Any]) -> str:
    s = m.get("search")
    if not s:
        return "not measured"
    if "challenge" in m:
        return (f"{s['mp']:+.1f} MP ({s['mp_low']:+.1f} to {s['mp_high']:+.1f}), "
                f"{s['campaigns']:,} campaigns")
    return (f"{_pct(s['a_score'])} ({_pct(s['a_score_low'])}-{_pct(s['a_score_high'])}), "
            f"{s['games']:,} games")


def _exact_cell(m: dict[str, Any]) -> str:
    if "gap" in m:
        g = m["gap"]
        return (f"gap to optimal {100 * g['gap_as_away']:.4f} (away), {100 * g['gap_as_home']:.4f} "
                f"(home) points")
    if "exploitability" in m:
        e = m["exploitability"]
        return (f"exploitability {e['exploitability_pitching']:.3f} (pitching), "
                f"{e['exploitability_batting']:.3f} (batting)")
    return ""


def markdown_block(measured: Sequence[dict[str, Any]]) -> str:
    """The docs' table of the shipped managers (one row each, from its measurements, in
    :data:`ENTRIES`' order), markers included."""
    order = list(ENTRIES)
    rows = sorted(measured, key=lambda m: order.index(m["entry"]) if m["entry"] in order else 99)
    lines = [MARKDOWN_BEGIN,
             "*Generated by `dugout pretrained --markdown` from each manager's `measurements.json`; "
             "do not edit by hand. Seat-swapped games, 95% intervals over pairs; the Manager "
             "Challenge's figures are Manager Points a campaign more than the other manager on "
             "the same campaigns.*", "",
             "| manager | env, options | recipe | against random | against the heuristic | "
             "against the search | exact |",
             "|---|---|---|---|---|---|---|"]
    for m in rows:
        r = m["recipe"]
        lines.append(f"| `{m['entry']}` | `{m['env_id']}`, {_options_text(m['env_options'])} | "
                     f"{_trainer(r)}, {_length(r)} | "
                     f"{_score_cell(m, 'random')} | "
                     f"{_score_cell(m, 'heuristic')} | {_search_cell(m)} | {_exact_cell(m)} |")
    lines.append(MARKDOWN_END)
    return "\n".join(lines)


def shipped_measurements(out: Path) -> list[dict[str, Any]]:
    """The measurements of every manager built in ``out``."""
    return [json.loads(p.read_text()) for p in sorted(out.glob(f"*/{MEASUREMENTS}"))]


# -- the command line --------------------------------------------------------------------------
def configure(parser: args.Parser) -> None:
    """``dugout pretrained``'s flags."""
    parser.add_argument("--entries", nargs="+", choices=list(ENTRIES), default=list(ENTRIES),
                        metavar="ENTRY", help=f"which managers (default all): {', '.join(ENTRIES)}")
    parser.add_argument("--timesteps", type=args.count(1, args.MAX_TIMESTEPS, "timesteps"),
                        metavar="N", help="train each entry for N timesteps (default: the entry's "
                                          "own: " + ", ".join(f"{e.name} {e.timesteps:,}"
                                                              for e in ENTRIES.values()
                                                              if e.trainer not in NO_TIMESTEPS)
                                          + "; a distilled or expert-iteration entry trains its "
                                            "own epochs)")
    parser.add_argument("--checkpoint", type=args.in_dir, metavar="PATH",
                        help="ship this checkpoint folder (meta.json + policy.pt) instead of "
                             "training; one entry only, of the checkpoint's env and options")
    parser.add_argument("--measure-only", action="store_true",
                        help="measure the managers already in --out again and rewrite their cards")
    parser.add_argument("--search-only", action="store_true",
                        help="measure the managers already in --out against the search manager "
                             "(--search-games N games, the Manager Challenge's campaigns), keep "
                             "their other figures, and rewrite their cards")
    parser.add_argument("--cards-only", action="store_true",
                        help="write the cards of the managers already in --out again from their "
                             "measurements.json, measuring nothing")
    parser.add_argument("--games", type=args.count(4, args.MAX_GAMES, "games a matchup", even=True),
                        default=_MEASURING["--games"], metavar="N",
                        help="games against random and against the heuristic, an even number "
                             "(seat-swapped pairs) from 4 (default 400)")
    parser.add_argument("--search-games", type=args.integer(0, args.MAX_GAMES, "games", even=True),
                        default=_MEASURING["--search-games"], metavar="N",
                        help="games against the search manager, an even number (the Manager "
                             "Challenge: campaigns of each); 0 leaves it out (default 0)")
    parser.add_argument("--campaigns", type=args.count(2, args.MAX_GAMES, "campaigns"),
                        default=_MEASURING["--campaigns"], metavar="N",
                        help="the Manager Challenge's campaigns a manager (default 200)")
    parser.add_argument("--workers", type=args.workers, default=1,
                        help="worker processes for the tournaments (default 1; the figures do "
                             "not depend on it)")
    parser.add_argument("--seed", type=args.seed, default=0,
                        help=f"the training runs' seed, from 0 to {args.MAX_SEED} (default 0)")
    parser.add_argument("--out", type=args.out_dir, default=None,
                        help="where the managers' folders go (default: the package's "
                             "dugout/agents/pretrained)")
    parser.add_argument("--work", type=args.out_dir, default=Path("runs") / "pretrained",
                        help="where the training runs go (default runs/pretrained)")
    parser.add_argument("--markdown", metavar="FILE", type=args.out_file, nargs="+",
                        help="also write the table of every manager in --out into each FILE (its "
                             "generated block replaced, or added at its end)")


def check(ns: argparse.Namespace) -> None:
    """Flags that must agree: ``--checkpoint`` ships one entry, fits it, and does not train;
    ``--measure-only``, ``--search-only`` and ``--cards-only`` (one of them) need every
    chosen entry already built in ``--out``, and none trains; ``--search-only`` needs
    ``--search-games`` and takes no other measuring flag, ``--cards-only`` none."""
    from ..agents.policy import CheckpointError
    ns.out = Path(ns.out) if ns.out is not None else default_out()
    if len(set(ns.entries)) != len(ns.entries):
        raise args.UsageError("--entries", "--entries: an entry is given twice")
    if ns.search_games == 2:
        raise args.UsageError("--search-games", "--search-games: 0, or at least 4 (two pairs)")
    if ns.checkpoint is not None:
        if ns.timesteps is not None:
            raise args.UsageError("--timesteps", "--timesteps trains; --checkpoint ships a "
                                                 "checkpoint as it is: choose one")
        if len(ns.entries) != 1:
            raise args.UsageError("--checkpoint", "--checkpoint ships one entry: give one "
                                                  "--entries ENTRY")
        if Path(ns.checkpoint).resolve() == (ns.out / ns.entries[0]).resolve():
            raise args.UsageError("--checkpoint", f"--checkpoint: {ns.checkpoint} is the entry's "
                                                  f"own folder in --out; --measure-only measures "
                                                  f"it again")
        try:
            check_checkpoint_fits(ENTRIES[ns.entries[0]], ns.checkpoint)
        except (CheckpointError, ValueError) as error:
            raise args.UsageError("--checkpoint", f"--checkpoint: {error}") from None
    BLOCK.check_flag(ns.markdown)
    modes = [flag for flag, given in (("--measure-only", ns.measure_only),
                                      ("--cards-only", ns.cards_only),
                                      ("--search-only", ns.search_only)) if given]
    if len(modes) > 1:
        raise args.UsageError(modes[1], f"{modes[1]} and {modes[0]}: choose one")
    if ns.search_only and not ns.search_games:
        raise args.UsageError("--search-only", "--search-only measures against the search "
                                               "manager: give --search-games N (at least 4)")
    for flag in modes:
        if ns.timesteps is not None:
            raise args.UsageError("--timesteps", f"--timesteps trains; {flag} does not")
        if ns.checkpoint is not None:
            raise args.UsageError("--checkpoint", f"--checkpoint and {flag}: choose one")
        for name in ns.entries:
            if not (ns.out / name / "meta.json").is_file() or not (ns.out / name / MEASUREMENTS).is_file():
                raise args.UsageError(flag, f"{flag}: {ns.out / name} holds no built manager")
        unused = {"--cards-only": ("--games", "--search-games", "--campaigns"),
                  "--search-only": ("--games", "--campaigns")}.get(flag, ())
        for other in unused:
            if getattr(ns, other[2:].replace("-", "_")) != _MEASURING[other]:
                raise args.UsageError(other, f"{other} measures what {flag} leaves as it is"
                                      if flag == "--search-only" else
                                      f"{other} measures; {flag} measures nothing")
    if ns.timesteps is not None and all(ENTRIES[n].trainer in NO_TIMESTEPS for n in ns.entries):
        raise args.UsageError("--timesteps", "--timesteps: none of the chosen entries trains by "
                                             "timesteps (" + ", ".join(
                                                 f"{n}: {_trains_by(ENTRIES[n])}"
                                                 for n in ns.entries) + ")")


def _trains_by(entry: Entry) -> str:
    """What an entry without timesteps trains by, in a few words."""
    if entry.trainer == "distill":
        return "the exact solver distilled"
    return ("the heuristic cloned" if entry.overrides.get("expert") == "heuristic"
            else "expert iteration") + f", {entry.overrides.get('rounds')} round(s)"


#: the flags of ``dugout pretrained`` that say how a manager is measured (and their defaults)
_MEASURING = {"--games": 400, "--search-games": 0, "--campaigns": 200}


def _command(ns: argparse.Namespace, entry: Entry) -> str:
    parts = ["dugout pretrained", "--entries", entry.name]
    if ns.checkpoint is not None:
        parts += ["--checkpoint", "PATH"]
    elif ns.timesteps is not None:
        parts += ["--timesteps", str(ns.timesteps)]
    for flag, default in (*_MEASURING.items(), ("--seed", 0)):
        value = getattr(ns, flag[2:].replace("-", "_"))
        if value != default:
            parts += [flag, str(value)]
    return " ".join(parts)


def _remeasured(command: str, ns: argparse.Namespace) -> str:
    """A built manager's command, measured again with ``--measure-only``: its training as it
    was, its measuring flags today's (those not at their default)."""
    words, kept = command.split(), []
    while words:
        word = words.pop(0)
        if word in _MEASURING and words:
            words.pop(0)
            continue
        kept.append(word)
    for flag, default in _MEASURING.items():
        value = getattr(ns, flag[2:].replace("-", "_"))
        if value != default:
            kept += [flag, str(value)]
    return " ".join(kept)


def run(ns: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Build each entry: train it (or take ``--checkpoint``, or keep it with
    ``--measure-only``), measure it, write its folder and card (``--cards-only``: the card
    alone, from the measurements); the measurements by entry."""
    written = {}
    for name in ns.entries:
        entry = ENTRIES[name]
        folder = ns.out / name
        if ns.cards_only:
            written[name] = json.loads((folder / MEASUREMENTS).read_text())
            (folder / CARD).write_text(card_text(written[name]))
            continue
        if ns.search_only:
            written[name] = _add_search(entry, folder, ns.search_games, ns.workers)
            continue
        t0 = time.perf_counter()
        old = None
        if ns.measure_only:
            old = json.loads((folder / MEASUREMENTS).read_text())
            recipe, train_seconds = old["recipe"], old.get("train_seconds")
            command = _remeasured(old["command"], ns)
        else:
            if ns.checkpoint is not None:
                checkpoint, source = Path(ns.checkpoint), "checkpoint"
            elif entry.trainer in NO_TIMESTEPS:
                st = entry_settings(entry, 0, ns.seed, Path(ns.work) / name)
                what = ("distilling the exact solver" if entry.trainer == "distill" else
                        f"expert iteration with --expert {st.expert}, "
                        f"{st.rounds} round(s) of {st.games} games")
                print(f"{name}: {what} ({st.epochs} epochs)", file=sys.stderr, flush=True)
                checkpoint = _train(entry, 0, ns.seed, Path(ns.work))
                source = "trained"
            else:
                print(f"{name}: training ({ns.timesteps or entry.timesteps:,} timesteps)",
                      file=sys.stderr, flush=True)
                checkpoint = _train(entry, ns.timesteps or entry.timesteps, ns.seed, Path(ns.work))
                source = "trained"
            recipe = build_entry(entry, folder, checkpoint, source)
            command, train_seconds = _command(ns, entry), round(time.perf_counter() - t0, 1)
            if recipe.get("made_by"):          # the folder its own command writes
                command = command.replace("PATH", recipe.get("made_in",
                                                             f"runs/exit_{entry.name}/model"))
        print(f"{name}: measuring", file=sys.stderr, flush=True)
        figures = measure_entry(entry, folder, ns.games, ns.search_games, ns.campaigns, ns.workers)
        if old is not None and not ns.search_games and old.get("search"):
            # the same weights measured again: the search's figures, measured on its own, stay
            figures.update({k: old[k] for k in ("search", "search_command", "search_date")
                            if k in old})
        measurements = {"entry": name, "title": entry.title, "env_id": entry.env_id,
                        "env_options": dict(entry.options), "covered_options": list(COVERED),
                        "recipe": recipe, "command": command, "train_seconds": train_seconds,
                        "date": datetime.date.today().isoformat(), **figures}
        (folder / MEASUREMENTS).write_text(json.dumps(measurements, indent=2, sort_keys=True) + "\n")
        (folder / CARD).write_text(card_text(measurements))
        written[name] = measurements
        print(f"{name}: written to {folder}", file=sys.stderr, flush=True)
    for path in ns.markdown or ():
        BLOCK.write(Path(path), markdown_block(shipped_measurements(ns.out)))
    return written


def _add_search(entry: Entry, folder: Path, games: int, workers: int) -> dict[str, Any]:
    """``--search-only``: a built manager measured against the search, its other figures
    kept; its measurements and card written again, and returned."""
    measurements = json.loads((folder / MEASUREMENTS).read_text())
    print(f"{entry.name}: measuring against the search ({games:,} "
          f"{'campaigns' if entry.env_id == 'manager_challenge_v0' else 'games'})",
          file=sys.stderr, flush=True)
    measurements.update(search=_search(entry, folder, games, workers),
                        search_command=_search_command(entry.name, games),
                        search_date=datetime.date.today().isoformat())
    (folder / MEASUREMENTS).write_text(json.dumps(measurements, indent=2, sort_keys=True) + "\n")
    (folder / CARD).write_text(card_text(measurements))
    print(f"{entry.name}: written to {folder}", file=sys.stderr, flush=True)
    return measurements


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, Any]]:
    """``python -m dugout.studies.pretrained``: the same as ``dugout pretrained``."""
    return args.invoke("dugout pretrained", configure, check, run, argv, __doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
