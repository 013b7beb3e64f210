"""Bottom of the 9th's determinization checked over random games, for the tests of each
option (support cards, the tenth inning, random allocation, Condition Cards): at every
state (or every ``state_every``-th), both seats, the env's fast encoder is the view's
encoding, a sample of the view shows exactly that view, and every ``play_every``-th sample
saves, loads and plays on to the end."""

from __future__ import annotations

import random
from typing import Any, Callable, Iterable

from dugout.envs import bottom_ninth_v0
from dugout.envs.bottom_ninth import rules
from dugout.envs.bottom_ninth.env import encode_state, encode_view
from dugout.envs.bottom_ninth.sample import public_setup, sample_state
from dugout.envs.bottom_ninth.view import view_of
from dugout.envs.core.engine import play_out

from helpers import dumps, roundtrip


def check_samples(options: dict[str, Any], seeds: Iterable[int], play_every: int,
                  state_every: int = 1, extra: Callable[[Any, Any], None] | None = None,
                  on_state: Callable[[Any], None] | None = None) -> int:
    """The checks above over random games of ``options`` on ``seeds``; ``extra(state,
    sample)`` adds an option's own, ``on_state(state)`` sees every state. The samples
    checked."""
    env = bottom_ninth_v0.raw_env(**options)
    setup = public_setup(env)
    n = 0
    for seed in seeds:
        env.reset(seed=seed)
        rng = random.Random(seed)
        game = env.unwrapped
        k = 0
        while True:
            state = game.state_
            k += 1
            if on_state is not None:
                on_state(state)
            if k % state_every == 0 or state.board.over:
                for seat in (0, 1):
                    n += 1
                    view = view_of(state, seat)
                    assert (encode_state(state, seat) == encode_view(view)).all()
                    sample = sample_state(view, random.Random(n), setup)
                    assert view_of(sample, seat) == view
                    if extra is not None:
                        extra(state, sample)
                    if n % play_every == 0:
                        assert dumps(roundtrip(sample)) == dumps(sample)
                        policy = random.Random(n)
                        play_out(sample, rules, lambda s, d: policy.choice(d.legal), check=True)
            if state.board.over:
                break
            env.step(rng.choice(state.pending.legal))
    return n
