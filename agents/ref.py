"""A manager named in text, parsed once: :class:`AgentRef`.

The command line, the registry, tournaments, the backends, the solvers and the Manager
Challenge's evaluation all name managers the same way, for every env id (the two-manager
rulesets and the single-agent Manager Challenge alike)::

    random, heuristic, never-steal, solver   a manager the env's registry knows by name
    search                                   the search manager at its default settings
    search:sims=64,rollout=heuristic         the search manager with settings (key=value,...)
    ppo:PATH                                 a trained manager's checkpoint folder

``AgentRef.parse(text)`` checks the form (a known prefix, a non-empty argument, no
blanks in a name, ``key=value`` settings); whether the env knows a name or a setting, and whether a checkpoint loads and fits
the env, are the registry's checks (:func:`dugout.agents.make_agent`), made where the
env is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["AgentRef", "PREFIXES"]

#: The prefixes a reference may take, and what follows each.
PREFIXES = {"ppo": "a trained manager's checkpoint folder (ppo:PATH)",
            "search": "the search manager's settings (search:key=value,...)"}


@dataclass(frozen=True)
class AgentRef:
    """A manager: ``kind`` is ``"name"`` (a registered name, in ``name``) or a prefix of
    :data:`PREFIXES` (``"ppo"`` or ``"search"``, its argument in ``arg``). ``str(ref)`` is
    the text it was parsed from."""

    kind: str
    name: str = ""
    arg: str = ""

    @classmethod
    def parse(cls, text: Any) -> "AgentRef":
        """The reference ``text`` names; a ``ValueError`` says what is wrong with it."""
        if isinstance(text, AgentRef):
            return text
        if not isinstance(text, str):
            raise ValueError(f"a manager is named by text, got {type(text).__name__} {text!r}")
        if not text.strip():
            raise ValueError("an empty manager name")
        prefix, sep, arg = text.partition(":")
        if sep and prefix in PREFIXES:
            if not arg.strip():
                raise ValueError(f"{text!r}: {prefix}: needs {PREFIXES[prefix]}")
            if prefix == "search":
                _settings(text, arg)
                return cls(prefix, "search", arg)
            return cls(prefix, "", arg)
        if sep:
            raise ValueError(f"{text!r}: unknown prefix {prefix!r}; a manager is a name or "
                             + ", ".join(PREFIXES[p] for p in PREFIXES))
        if text != text.strip() or any(c.isspace() for c in text):
            raise ValueError(f"{text!r}: a manager's name has no blanks")
        return cls("name", text)

    @property
    def is_checkpoint(self) -> bool:
        """A trained manager loaded from a checkpoint folder (``ppo:PATH``)."""
        return self.kind == "ppo"

    @property
    def settings(self) -> dict[str, str]:
        """The ``key=value`` settings of a ``search:...`` reference (empty for a name)."""
        return _settings(str(self), self.arg) if self.kind == "search" else {}

    @property
    def path(self) -> str:
        """The checkpoint folder of a ``ppo:PATH`` reference."""
        if not self.is_checkpoint:
            raise ValueError(f"{self}: only a trained manager (ppo:PATH) has a checkpoint")
        return self.arg

    def __str__(self) -> str:
        return self.name if self.kind == "name" else f"{self.kind}:{self.arg}"


def _settings(text: str, arg: str) -> dict[str, str]:
    """The ``key=value,...`` settings of ``arg``; a ``ValueError`` names a malformed one or a
    key given twice (whether a key is known is the manager's check)."""
    settings: dict[str, str] = {}
    for item in arg.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key or not value or any(c.isspace() for c in item):
            raise ValueError(f"{text!r}: a setting is key=value without blanks, got {item!r}")
        if key in settings:
            raise ValueError(f"{text!r}: {key} is set twice")
        settings[key] = value
    return settings
