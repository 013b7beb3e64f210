"""The PettingZoo-style entry points every ruleset's ``<ruleset>_v0`` module exposes.

    raw_env, env = entry_points(ThatsBaseballEnv)

``raw_env(**options)`` is the bare environment (an illegal action raises
``IllegalActionError``); ``env(**options)`` wraps it in PettingZoo's order-enforcing
wrapper (:class:`OrderEnforcing`, a subclass of ``OrderEnforcingWrapper`` that behaves the
same, only faster) and makes an illegal action lose the game (-1, PettingZoo classic
convention).
"""

from __future__ import annotations

from typing import Any, Callable

from pettingzoo.utils import wrappers

__all__ = ["entry_points", "OrderEnforcing"]


def _forwarded(name: str, before_reset: bool) -> property:
    """An attribute read from the wrapped env, as ``BaseWrapper``'s ``__getattr__`` reads it
    but without its fallback path; ``before_reset``: readable before ``reset()``
    (``OrderEnforcingWrapper`` refuses the others with AttributeError). As on PettingZoo's
    wrapper, a value assigned to the wrapper stays on the wrapper and is read from there."""

    def get(self):
        mine = self.__dict__
        if name in mine:
            return mine[name]
        if not before_reset and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def set_(self, value) -> None:
        self.__dict__[name] = value

    def delete(self) -> None:
        del self.__dict__[name]

    return property(get, set_, delete, doc=f"The wrapped env's ``{name}``.")


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the attributes an ``agent_iter`` loop reads
    on every step (``agent_selection``, ``agents``, ``terminations``, ...) forwarded by
    properties, and ``last()`` passed to the wrapped env in one call.

    ``BaseWrapper`` reaches them through ``__getattr__``, which Python calls only after
    a failed lookup: about a microsecond each, several times a decision. The checks are
    the same: they raise AttributeError before ``reset()``, and every other attribute
    still goes through ``__getattr__``.
    """

    agents = _forwarded("agents", False)
    agent_selection = _forwarded("agent_selection", False)
    rewards = _forwarded("rewards", False)
    terminations = _forwarded("terminations", False)
    truncations = _forwarded("truncations", False)
    infos = _forwarded("infos", False)
    _cumulative_rewards = _forwarded("_cumulative_rewards", True)

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def __str__(self) -> str:
        return str(self.env)            # as OrderEnforcingWrapper itself prints: the env's name

    def step(self, action) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:                           # PettingZoo's errors and warnings
            super().step(action)


def entry_points(env_class: type) -> tuple[Callable[..., Any], Callable[..., Any]]:
    name = env_class.metadata["name"]

    def raw_env(**options: Any):
        return env_class(**options)

    def env(**options: Any) -> OrderEnforcing:
        options.setdefault("illegal_action", "lose")
        return OrderEnforcing(env_class(**options))

    raw_env.env_class = env.env_class = env_class
    raw_env.__doc__ = f"The bare {name} environment; an illegal action raises ``IllegalActionError``."
    env.__doc__ = (f"The {name} environment for agents: an illegal action loses the game (-1) "
                   f"and ``infos`` say why.")
    return raw_env, env
