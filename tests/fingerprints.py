"""Fixed-seed fingerprints of every registered env: what a restructuring must leave unchanged.

For each env id and option set the contract suite runs (:func:`helpers.cases`) and the Manager
Challenge, :func:`fingerprint` plays seeded games and hashes, game by game, everything a client
can see: at every live step each seat's observation (``observe``, both seats: the observation
of the seat not on the move too), the action mask and the infos, the rewards, terminations and
truncations, and at the end the box score. Games are played by seeded random managers
(:data:`RANDOM_GAMES` of them) and by the heuristic managers (:data:`HEURISTIC_GAMES`), whose
choices read the engines through the agents' own paths.

``tests/data/fingerprints.json`` holds the hashes of the code as it stood when they were
written; ``tests/test_fingerprints.py`` replays the games and compares. A change that is meant
to change a game (a rule fixed, an observation widened) rewrites the file with::

    python tests/fingerprints.py --write                      # every case
    python tests/fingerprints.py --write grand_slam_v0        # only that env id's cases
    python tests/fingerprints.py --write --missing            # only cases with none recorded

and says so in its commit; a change that is meant to leave every game alone (a file split, an
encoder merged) must leave the file as it is. A new option set in the contract suite's
``OPTION_SETS`` gets its fingerprints with ``--missing``, leaving every other case's alone.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Iterator

import numpy as np

if __package__ in (None, ""):                       # run as a script: tests/ on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent))

import helpers  # noqa: E402

import dugout.envs as envs  # noqa: E402
from dugout.agents import RandomAgent  # noqa: E402
from dugout.agents.registry import make_agent  # noqa: E402

PATH = Path(__file__).resolve().parent / "data" / "fingerprints.json"
RANDOM_GAMES = 20
HEURISTIC_GAMES = 5
CHALLENGE = "manager_challenge_v0"


def case_key(env_id: str, options: dict[str, Any]) -> str:
    return env_id + json.dumps(options, sort_keys=True)


def all_cases() -> list[tuple[str, dict[str, Any]]]:
    return [*helpers.cases(), (CHALLENGE, {})]


def _plain(x: Any) -> Any:
    """A JSON-able form of an info value (arrays as lists, floats as their repr)."""
    if isinstance(x, np.ndarray):
        return {"dtype": str(x.dtype), "shape": list(x.shape), "data": x.tolist()}
    if isinstance(x, (np.integer, np.bool_)):
        return x.item()
    if isinstance(x, (float, np.floating)):
        return repr(float(x))
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


class _Hash:
    def __init__(self) -> None:
        self._h = hashlib.sha256()

    def array(self, a: Any) -> None:
        a = np.ascontiguousarray(a)
        self._h.update(f"{a.dtype}{a.shape}".encode())
        self._h.update(a.tobytes())

    def obs(self, obs: Any) -> None:
        if isinstance(obs, dict):
            for k in sorted(obs):
                self._h.update(k.encode())
                self.array(obs[k])
        else:
            self.array(obs)

    def json(self, x: Any) -> None:
        self._h.update(json.dumps(_plain(x), sort_keys=True).encode())

    def hexdigest(self) -> str:
        return self._h.hexdigest()[:16]


def _managers(env_id: str, kind: str, seed: int, agents: tuple[str, ...]) -> dict[str, Any]:
    if env_id == CHALLENGE:
        from dugout.agents.manager_challenge import MANAGERS
        return {a: MANAGERS[kind]() for a in agents}
    if kind == "random":
        return {a: RandomAgent(seed=1000 * seed + i) for i, a in enumerate(agents)}
    return {a: make_agent(env_id, "heuristic", seed=1000 * seed + i)
            for i, a in enumerate(agents)}


def _aec_game(env_id: str, options: dict[str, Any], kind: str, seed: int) -> str:
    env = envs.make(env_id, **options)
    h = _Hash()
    env.reset(seed=seed)
    managers = _managers(env_id, kind, seed, tuple(env.possible_agents))
    for i, manager in enumerate(managers.values()):
        manager.reset(seed * 2 + i)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        h.json([agent, reward, term, trunc, info])
        for seat in env.possible_agents:
            h.obs(env.observe(seat))
        if term or trunc:
            env.step(None)
            continue
        manager = managers[agent]
        view = env.unwrapped.view(agent) if getattr(manager, "needs_view", False) else None
        action = manager.act(obs, view)
        h.json(int(action))
        env.step(action)
    h.json(env.unwrapped.box_score())
    return h.hexdigest()


def _challenge_game(kind: str, seed: int) -> str:
    env = envs.make(CHALLENGE)
    h = _Hash()
    manager = _managers(CHALLENGE, kind, seed, ("manager",))["manager"]
    obs, info = env.reset(seed=seed)
    manager.reset(seed)
    h.obs(obs)
    h.json(info)
    done = False
    while not done:
        view = env.unwrapped.view() if getattr(manager, "needs_view", False) else None
        action = manager.act({"observation": obs, "action_mask": info["action_mask"]}, view)
        h.json(int(action))
        obs, reward, term, trunc, info = env.step(action)
        h.obs(obs)
        h.json([reward, term, trunc, info])
        done = term or trunc
    return h.hexdigest()


def games(n_random: int = RANDOM_GAMES, n_heuristic: int = HEURISTIC_GAMES) -> Iterator[tuple]:
    """``(case key, "random" | "heuristic", seed)`` of every fingerprinted game."""
    for env_id, options in all_cases():
        for kind, n in (("random", n_random), ("heuristic", n_heuristic)):
            for seed in range(n):
                yield env_id, options, kind, seed


def fingerprint(env_id: str, options: dict[str, Any], kind: str, seed: int) -> str:
    if env_id == CHALLENGE:
        return _challenge_game(kind, seed)
    return _aec_game(env_id, options, kind, seed)


def compute(keep: Any = lambda env_id, key: True) -> dict[str, dict[str, list[str]]]:
    """The fingerprints of every case ``keep(env_id, case key)`` accepts."""
    out: dict[str, dict[str, list[str]]] = {}
    for env_id, options, kind, seed in games():
        key = case_key(env_id, options)
        if keep(env_id, key):
            out.setdefault(key, {}).setdefault(kind, []).append(
                fingerprint(env_id, options, kind, seed))
    return out


def load() -> dict[str, dict[str, list[str]]]:
    return json.loads(PATH.read_text())


USAGE = ("usage: python tests/fingerprints.py --write [--missing] [ENV_ID ...]   (rewrites "
         + PATH.name + ": every case, the cases with none recorded, or those env ids' cases)")


def main(argv: list[str]) -> None:
    if not argv or argv[0] != "--write":
        sys.exit(USAGE)
    missing = "--missing" in argv[1:]
    env_ids = [a for a in argv[1:] if a != "--missing"]
    known = {env_id for env_id, _ in all_cases()}
    unknown = sorted(set(env_ids) - known)
    if unknown or any(a.startswith("-") for a in env_ids):
        sys.exit(f"unknown env id(s) {unknown or env_ids}; known: {', '.join(sorted(known))}\n{USAGE}")
    old = load() if PATH.exists() else {}
    current = {case_key(e, o) for e, o in all_cases()}

    def keep(env_id: str, key: str) -> bool:
        return (not missing or key not in old) and (not env_ids or env_id in env_ids)
    new = compute(keep)
    merged = {k: v for k, v in old.items() if k in current}
    merged.update(new)
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n")
    print(f"wrote {PATH}: {len(new)} case(s) computed, {len(merged) - len(new)} kept")


if __name__ == "__main__":
    main(sys.argv[1:])
