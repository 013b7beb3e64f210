"""The import graph: every import points down (core <- rulesets <- agents <- train/evaluate
<- studies), with no circles, the library never imports the lab (``dugout.studies``), and
the engines never import the RL libraries.

The graph is read from the source (every ``import`` and ``from ... import``, those inside
functions too), so a lazy import that runs back up is caught as surely as a top-level one.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"envs": "dugout.envs", "agents": "dugout.agents", "train": "dugout.train",
           "vector": "dugout.vector", "evaluate": "dugout.evaluate",
           "integrations": "dugout.integrations", "cli": "dugout.cli",
           "studies": "dugout.studies", "web": "dugout.web"}
#: The library: what a user installs dugout for. The lab (``dugout.studies``) stands on it.
LIBRARY = ("dugout.envs", "dugout.agents", "dugout.train", "dugout.vector", "dugout.evaluate",
           "dugout.integrations", "dugout.web")


def _modules() -> dict[str, Path]:
    out = {"dugout": ROOT / "__init__.py"}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join([package, *parts])] = path
    return out


MODULES = _modules()


def _runtime_nodes(tree: ast.AST):
    """Every node, less the bodies of ``if TYPE_CHECKING:`` (type hints, not imports that run)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            test = getattr(child, "test", None)
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(test):
                stack.extend(child.orelse)
                continue
            stack.append(child)


def _imports(name: str, path: Path) -> set[str]:
    """The dugout modules ``name`` imports (a package import counts as its __init__)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]     # an attribute: its module
            if target.startswith("dugout") and target != name:
                found.add(target)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def floor(name: str) -> int:
    """0 the core (and the root package: only ``__version__``), 1 the rulesets and the env
    registry, 2 the agents and the batched engines (``dugout.vector``: its Gymnasium env plays
    the agents' heuristic) and the shared argument checks (``dugout.cli.args``), 3 train,
    evaluate and the integrations with other libraries, 4 the lab (``dugout.studies``: the
    studies, calibrations, benchmarks and the main job, on the whole library), 5 the entry
    points (the ``dugout`` command and the ``python -m`` modules). The ``dugout`` command
    names the studies' modules in its table as text, imported only when one runs."""
    if name == "dugout":
        return 0
    if name == "dugout.cli.main" or name.endswith(".__main__"):
        return 5                  # entry points: the dugout command and the python -m aliases
    if name.startswith("dugout.studies"):
        return 4
    if name in ("dugout.cli", "dugout.cli.args"):
        return 2                  # the shared argument checks: on the envs and AgentRef
    if name.startswith("dugout.envs.core"):
        return 0
    if name.startswith("dugout.envs"):
        return 1
    if name.startswith(("dugout.agents", "dugout.vector")):
        return 2
    return 3


def test_the_root_package_imports_nothing():
    assert GRAPH["dugout"] == set()


def test_the_graph_was_read():
    assert len(MODULES) > 40
    assert "dugout.envs.core.aec" in GRAPH["dugout.envs.thats_baseball.env"]
    assert "dugout.agents.play" in GRAPH["dugout.evaluate.tournament"]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_import_points_down(name):
    up = sorted(t for t in GRAPH[name] if floor(t) > floor(name))
    assert not up, f"{name} (floor {floor(name)}) imports from a floor above: {up}"


def _rulesets() -> set[str]:
    """The rulesets' folders under ``envs/``: every registered env id's (its entry module
    ``dugout.envs.<ruleset>_v0``, and the folder of the module that module imports: the
    Manager Challenge's is Bottom of the 9th's), and ``realstats``."""
    import dugout.envs as envs
    out = {"realstats"}
    for env_id in envs.env_ids("all"):
        entry = envs.spec(env_id, kind=None).entry
        assert entry in MODULES, (env_id, entry)
        out |= {t.split(".")[2] for t in GRAPH[entry] if t.startswith("dugout.envs.")
                and t.split(".")[2] != "core" and (ROOT / "envs" / t.split(".")[2]).is_dir()}
    return out


def test_every_registered_ruleset_is_a_folder_of_envs():
    rulesets = _rulesets()
    assert {"thats_baseball", "grand_slam", "showdown", "bottom_ninth", "pokemon_baseball",
            "realstats"} <= rulesets                    # the check reads what it should
    for folder in rulesets:
        assert (ROOT / "envs" / folder / "__init__.py").is_file(), folder


def test_rulesets_do_not_import_each_other():
    rulesets = _rulesets()
    for name, targets in GRAPH.items():
        parts = name.split(".")
        if len(parts) > 2 and parts[1] == "envs" and parts[2].removesuffix("_v0") in rulesets:
            own = parts[2].removesuffix("_v0")
            others = {t for t in targets if t.split(".")[2:3] and t.split(".")[2] in rulesets
                      and t.split(".")[2] != own}
            # realstats builds the rulesets' cards: it alone may read their card models
            if own != "realstats":
                assert not others, f"{name} imports another ruleset: {sorted(others)}"


#: train modules that may use evaluate (docs/architecture.md): expert iteration's rounds are
#: games played and scored on the tournaments' backends
TRAIN_USES_EVALUATE = {"dugout.train.exit"}


def test_train_and_evaluate_do_not_import_each_other():
    """Both stand on the agents' floor; only the lab (the main job: train, then evaluate)
    uses both, and expert iteration uses evaluate (one way: evaluate never imports train)."""
    assert TRAIN_USES_EVALUATE <= set(GRAPH)                    # the exception is still there
    for name, targets in GRAPH.items():
        if name.startswith("dugout.train") and name not in TRAIN_USES_EVALUATE:
            assert not [t for t in targets if t.startswith("dugout.evaluate")], name
        if name.startswith("dugout.evaluate"):
            assert not [t for t in targets if t.startswith("dugout.train")], name


def test_the_library_never_imports_the_lab():
    """No module of the library imports ``dugout.studies`` (the floors say so too; this
    names the rule). The ``dugout`` command and ``python -m dugout.studies`` may: they are
    entry points, above both."""
    studies = [name for name in MODULES if name.startswith("dugout.studies")]
    assert "dugout.studies.pipeline" in studies and "dugout.studies.bench" in studies
    for name, targets in GRAPH.items():
        if name.startswith(LIBRARY + ("dugout.cli.args",)) or name in ("dugout", "dugout.cli"):
            assert not [t for t in targets if t.startswith("dugout.studies")], name


def test_the_command_table_names_the_studies_that_exist():
    """``dugout``'s table names the lab's modules as text (imported when a subcommand
    runs): every study module is a subcommand's (a private one, ``_name``, is a piece the
    studies share), and every module named exists."""
    from dugout.cli.main import COMMANDS
    named = {c.module for c in COMMANDS.values()}
    assert named <= set(MODULES), sorted(named - set(MODULES))
    studies = {name for name in MODULES if name.startswith("dugout.studies.")
               and not name.endswith("__main__") and not name.rpartition(".")[2].startswith("_")}
    assert studies <= named, sorted(studies - named)


def test_no_circles():
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(GRAPH.get(node, ())):
            if nxt.startswith(node + "."):
                continue                   # a package's __init__ re-exporting its own modules
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                raise AssertionError("import circle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(GRAPH):
        if name not in state:
            visit(name)


def test_engines_never_import_the_rl_libraries():
    """A ruleset's engine is plain Python and numpy (docs/architecture.md, "Import floors")."""
    for path in sorted(ROOT.glob("envs/*/rules.py")) + sorted(ROOT.glob("envs/core/*.py")):
        if path.name in ("aec.py", "entry.py"):
            continue                      # the PettingZoo base class and entry points
        tree = ast.parse(path.read_text())
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                 for a in n.names}
        names |= {(n.module or "").split(".")[0] for n in ast.walk(tree)
                  if isinstance(n, ast.ImportFrom) and not n.level}
        assert not names & {"pettingzoo", "gymnasium", "torch", "stable_baselines3"}, path


def _run_time_modules() -> list[str]:
    """Every ruleset's managers (from the agents' registry), and the library's entry modules."""
    from dugout.agents.registry import MANAGER_MODULES, SOLO_MANAGER_MODULES
    return [*MANAGER_MODULES.values(), *SOLO_MANAGER_MODULES.values(),
            "dugout.agents.registry", "dugout.agents.play", "dugout.agents.policy",
            "dugout.agents.matrix_game", "dugout.agents.solvers.thats_baseball",
            "dugout.agents.solvers.bottom_ninth", "dugout.train.ppo", "dugout.train.adapter",
            "dugout.train.rllib", "dugout.envs", "dugout.vector", "dugout.vector.env",
            "dugout.evaluate.manager_challenge", "dugout.studies.bench"]


@pytest.mark.parametrize("module", _run_time_modules())
def test_importing_a_module_loads_nothing_above_its_floor(module):
    """At run time too: importing an agents module loads no train or evaluate module, and
    neither torch nor sb3 comes with the agents or the batched engines (a trained policy
    needs them when loaded)."""
    code = ("import sys, importlib; importlib.import_module(%r); "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('dugout', 'torch', "
            "'stable_baselines3', 'sb3_contrib')))))" % module)
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    above = [m for m in loaded if m.startswith("dugout") and m in MODULES
             and floor(m) > floor(module)]
    assert not above, f"importing {module} loaded {above}"
    if not module.startswith("dugout.train"):
        assert not [m for m in loaded if not m.startswith("dugout")], loaded


#: The only modules that may import Ray, each only inside functions (so only when used): the
#: ray backend of tournaments, the RLlib recipe and RLlib training.
RAY_IMPORTERS = {"dugout.evaluate.backends", "dugout.integrations.rllib", "dugout.train.rllib"}


def _ray_imports(path: Path) -> list[tuple[int, bool]]:
    """(line, at module level) of every ``import ray...`` / ``from ray... import`` in a file."""
    tree = ast.parse(path.read_text(), str(path))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        if any(n == "ray" or n.startswith("ray.") for n in names):
            found.append((node.lineno, id(node) in top))
    return found


def test_ray_is_imported_only_by_the_ray_paths_and_only_when_used():
    """Nothing imports Ray but the ray backend and the RLlib modules, and those only inside
    functions: `import dugout...` never needs Ray (the `ray` and `rllib` extras are optional)."""
    seen = set()
    for name, path in MODULES.items():
        found = _ray_imports(path)
        if not found:
            continue
        seen.add(name)
        assert name in RAY_IMPORTERS, f"{name} imports Ray (lines {[n for n, _ in found]})"
        assert not [n for n, top in found if top], f"{name} imports Ray at module level"
    assert seen == RAY_IMPORTERS          # the check reads what it should


def test_the_ray_backend_imports_cleanly_without_ray():
    """The backends and the command lines that offer --backend ray load without Ray."""
    code = ("import sys, importlib\n"
            "for m in ('dugout.evaluate.backends', 'dugout.evaluate.cli', "
            "'dugout.studies.calibrate_showdown', 'dugout.train.rllib'):\n"
            "    importlib.import_module(m)\n"
            "print(' '.join(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert loaded == []


def test_the_rllib_recipe_without_ray_says_how_to_install_it():
    """The main venv has no Ray: the recipe imports, and using it says what to install."""
    import importlib.util
    assert importlib.util.find_spec("ray") is None, "the main test venv must not hold Ray"
    from dugout.integrations import rllib
    with pytest.raises(ImportError, match=r"pip install 'dugout-baseball\[rllib\]'"):
        rllib.DugoutMultiAgentEnv({"env_id": "thats_baseball_v0"})


def test_the_registry_imports_an_env_only_when_it_is_made():
    """``dugout.envs`` lists every id and spec, of both kinds (the AEC rulesets and the
    single-agent Manager Challenge), without importing a ruleset; ``make`` imports the one
    it makes."""
    code = ("import sys, dugout.envs as e\n"
            "ids = e.env_ids('all')\n"
            "kinds = [e.spec(i, kind=None).kind for i in ids]\n"
            "assert 'manager_challenge_v0' in ids and 'gymnasium' in kinds and 'aec' in kinds\n"
            "before = sorted(m for m in sys.modules if m.startswith('dugout.envs.') and "
            "m.count('.') >= 2 and m.split('.')[2] not in ('core', 'registry'))\n"
            "e.make('manager_challenge_v0')\n"
            "print(' '.join(before), '|', 'dugout.envs.bottom_ninth.challenge' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["|", "True"]
