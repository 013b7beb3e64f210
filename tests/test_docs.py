"""The documentation: the README and the pages of ``docs/`` (built by ``mkdocs.yml``).

* ``mkdocs build --strict`` passes: no broken link between pages, no broken anchor, and every
  link to a repository file outside ``docs/`` (written from the repository's root,
  ``/envs/showdown/RULES.md``) names a file that exists (the hook ``docs/_hooks/repo_files.py``
  checks them and copies them into the site);
* every relative link of the README points to a file that exists;
* every ```python block of the README and the docs runs, each in a fresh interpreter with a
  timeout; a block whose first line is ``# not run: <why>`` is skipped, and fewer than a
  third may be;
* every ``dugout ...`` (or ``.venv/bin/dugout ...``) line of a ```bash block parses and passes
  its subcommand's checks (``run`` is never called), in a folder of its own where a trained
  manager it names (``ppo:PATH``) is a checkpoint made for the env; placeholders
  (``HEAD_IP``) are given values, and lines that need what this venv lacks (Ray) are skipped;
* the README stays a front page: under 300 lines, its table's sizes those of the envs.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
#: a fenced block: its language, and its text
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
#: a markdown link or image: its target
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
NOT_RUN = "# not run:"
BLOCK_TIMEOUT = 600


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _blocks(language: str) -> list[tuple[str, str]]:
    """(``page:line``, text) of every fenced block of ``language`` in the README and the docs."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match.group(1) == language:
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{_rel(page)}:{line}", match.group(2)))
    return found


def _outside_code(text: str) -> str:
    text = FENCE.sub("", text)
    return re.sub(r"`[^`\n]*`", "", text)


# -- the site -----------------------------------------------------------------------------------
def _mkdocs(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(config), "--site-dir", str(site)], cwd=config.parent,
                          capture_output=True, text=True, timeout=300)


def test_the_docs_build_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra: pip install -e '.[docs]'")
    site = tmp_path / "site"
    done = _mkdocs(ROOT / "mkdocs.yml", site)
    assert done.returncode == 0, done.stderr
    for page in ("index.html", "rulesets/showdown_v0/index.html", "benchmarks/index.html"):
        assert (site / page).is_file(), page
    # a link to a repository file: the file copied into the site, the link made relative to it
    assert (site / "envs/showdown/RULES.md").read_bytes() == \
        (ROOT / "envs/showdown/RULES.md").read_bytes()
    html = (site / "rulesets/showdown_v0/index.html").read_text(encoding="utf-8")
    assert 'href="../../envs/showdown/RULES.md"' in html
    assert "_hooks" not in {p.name for p in site.iterdir()}


def test_a_strict_build_refuses_a_link_to_a_missing_repository_file(tmp_path):
    """The hook's check fails a strict build, as a broken link between pages does."""
    pytest.importorskip("mkdocs", reason="the docs extra: pip install -e '.[docs]'")
    (tmp_path / "docs").mkdir()
    (tmp_path / "there.md").write_text("# There\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent(f"""\
        site_name: t
        hooks:
          - {ROOT / 'docs/_hooks/repo_files.py'}
        """), encoding="utf-8")
    page = tmp_path / "docs/index.md"
    page.write_text("# T\n\n[there](/there.md)\n", encoding="utf-8")
    done = _mkdocs(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site/there.md").is_file()
    page.write_text("# T\n\n[there](/there.md) [gone](/gone.md)\n", encoding="utf-8")
    done = _mkdocs(tmp_path / "mkdocs.yml", tmp_path / "site2")
    assert done.returncode != 0 and "/gone.md" in done.stderr


# -- links --------------------------------------------------------------------------------------
def _targets(page: Path) -> list[str]:
    return [t for t in LINK.findall(_outside_code(page.read_text(encoding="utf-8")))
            if not re.match(r"[a-z][a-z+.-]*:", t) and not t.startswith("#")]


def test_every_relative_link_of_the_readme_points_to_a_file():
    targets = _targets(README)
    assert len(targets) > 10
    for target in targets:
        path = target.split("#")[0]
        assert not path.startswith("/"), f"README.md: {target}: link relatively"
        assert (ROOT / path).exists(), f"README.md links to {target}, which does not exist"


def test_every_link_of_the_docs_to_the_repository_names_a_file():
    """Links from the repository's root (what the strict build's hook checks, without mkdocs)."""
    seen = 0
    for page in PAGES[1:]:
        for target in _targets(page):
            if target.startswith("/"):
                seen += 1
                path = target.split("#")[0].lstrip("/")
                assert (ROOT / path).is_file(), f"{_rel(page)} links to {target}: no such file"
    assert seen >= 6                     # every ruleset page links its RULES.md


# -- python blocks ------------------------------------------------------------------------------
PYTHON = _blocks("python")


def test_fewer_than_a_third_of_the_python_blocks_are_skipped():
    skipped = [where for where, code in PYTHON if code.lstrip().startswith(NOT_RUN)]
    assert len(PYTHON) >= 15
    assert 3 * len(skipped) < len(PYTHON), skipped
    for where, code in PYTHON:
        if code.lstrip().startswith(NOT_RUN):
            reason = code.lstrip().splitlines()[0][len(NOT_RUN):].strip()
            assert reason, f"{where}: say why it is not run"


@pytest.mark.parametrize("where,code", PYTHON, ids=[where for where, _ in PYTHON])
def test_python_block_runs(where, code, tmp_path):
    if code.lstrip().startswith(NOT_RUN):
        compile(code, where, "exec")          # not run (it says why), but valid Python
        return
    env = {**os.environ, "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=BLOCK_TIMEOUT)
    assert done.returncode == 0, f"{where} failed:\n{done.stderr[-4000:]}"


# -- dugout command lines -----------------------------------------------------------------------
PROGRAMS = ("dugout ", ".venv/bin/dugout ")
#: placeholders a command line may show, and what the test gives instead
PLACEHOLDERS = {"HEAD_IP": "127.0.0.1", "HOST": "127.0.0.1"}
#: the env a subcommand plays when no --env is given
DEFAULT_ENV = {"solve bottom_ninth": "bottom_ninth_v0", "verify bottom_ninth": "bottom_ninth_v0",
               "challenge": "manager_challenge_v0", "train challenge": "manager_challenge_v0"}


def _command_lines() -> list[tuple[str, str]]:
    """(``page:line``, the command line, continuations joined and the comment dropped)."""
    lines = []
    for where, text in _blocks("bash"):
        page, first = where.rsplit(":", 1)
        joined, start = "", None
        for n, line in enumerate(text.splitlines(), int(first) + 1):
            if start is None:
                start = n
            if line.rstrip().endswith("\\"):
                joined += line.rstrip()[:-1] + " "
                continue
            joined += line
            words = shlex.split(joined, comments=True)
            command = " ".join(words)
            if command.startswith(PROGRAMS) or command in ("dugout", ".venv/bin/dugout"):
                lines.append((f"{page}:{start}", command))
            joined, start = "", None
    return lines


COMMAND_LINES = _command_lines()


def _checkpoint(folder: Path, env_id: str, options: dict) -> None:
    """A trained manager's checkpoint for ``env_id`` built with ``options``: no hidden layer."""
    torch = pytest.importorskip("torch", reason="the train extra: a checkpoint needs torch")
    from dugout.envs import env_ids, make
    env = make(env_id, **options)
    if env_id in env_ids("aec"):
        obs, actions = env.observation_space("away")["observation"].shape[0], env.action_space("away").n
    else:
        obs, actions = env.observation_space.shape[0], env.action_space.n
    folder.mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps({
        "env_id": env_id, "obs_size": int(obs), "n_actions": int(actions), "net_arch": [],
        "activation": "Tanh", "env_options": options}))
    torch.save({"0.weight": torch.zeros(actions, obs), "0.bias": torch.zeros(actions)},
               folder / "policy.pt")


def _env_of(name: str, argv: list[str]) -> tuple[str, dict]:
    from dugout.envs.options import parse_env_option
    env_id = DEFAULT_ENV.get(name, "thats_baseball_v0")
    options: dict = {}
    for i, word in enumerate(argv[:-1]):
        if word == "--env":
            env_id = argv[i + 1]
        elif word == "--env-option":
            key, value = parse_env_option(argv[i + 1])
            options[key] = value
    return env_id, options


def test_the_command_lines_were_read():
    assert len(COMMAND_LINES) >= 40
    names = {line.split()[1] for _, line in COMMAND_LINES if len(line.split()) > 1}
    assert {"train", "tournament", "solve", "bench"} <= names


@pytest.mark.parametrize("where,line", COMMAND_LINES, ids=[w for w, _ in COMMAND_LINES])
def test_command_line_parses(where, line, tmp_path, monkeypatch, capsys):
    from dugout.cli.args import parse
    from dugout.cli.main import command_for, main
    argv = shlex.split(line)[1:]
    argv = [PLACEHOLDERS.get(w, w) for w in argv]
    argv = [re.sub("|".join(PLACEHOLDERS), lambda m: PLACEHOLDERS[m.group(0)], w) for w in argv]
    monkeypatch.chdir(tmp_path)
    command, rest = command_for(argv)
    if command is None:                       # dugout --help, dugout --version
        assert main(argv) == 0, where
        return
    wants_ray = "--backend" in argv and argv[argv.index("--backend") + 1:][:1] == ["ray"]
    missing = [m for m in {"ray" if wants_ray else "", command.needs} - {""}
               if importlib.util.find_spec(m) is None]
    env_id, options = _env_of(command.name, rest)
    for word in rest:
        path = word.removeprefix("ppo:") if word.startswith("ppo:") else None
        if command.name == "challenge" and word.startswith("runs/"):
            path = word                       # the challenge reads a bare folder as ppo:
        if path is not None and not (tmp_path / path).exists():
            _checkpoint(tmp_path / path, env_id, options)
        elif "/" in word and (ROOT / word).is_file() and not (tmp_path / word).exists():
            (tmp_path / word).parent.mkdir(parents=True, exist_ok=True)   # a file of the clone
            shutil.copy(ROOT / word, tmp_path / word)                    # the command reads
    module = __import__(command.module, fromlist=["_"])
    try:
        parse(f"dugout {command.name}", command.function("configure"),
              command.function("check"), rest, module.__doc__)
    except SystemExit as exit_:
        err = capsys.readouterr().err
        if missing:                           # what this venv lacks: one line saying how to get it
            lines = err.strip().splitlines()
            assert exit_.code == 2 and len(lines) == 1, f"{where}: {line}\n{err}"
            assert f"dugout-baseball[{missing[0]}]" in lines[0], f"{where}: {lines[0]}"
            return
        assert exit_.code == 0 and "--help" in rest, f"{where}: {line}\n{err}"
    assert not missing, f"{where}: {line} passed its checks without {missing}"


# -- the front page -----------------------------------------------------------------------------
def test_the_readme_is_a_front_page():
    assert len(README.read_text(encoding="utf-8").splitlines()) < 300


def test_the_readme_table_gives_each_env_its_sizes():
    """The table's observation size and action count are the envs' (with default options);
    its decisions per game come from ``docs/scripts/env_sizes.py``."""
    from dugout.envs import env_ids, make
    rows = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\| \[`(\w+)`\]\([^)]*\) \| [^|]+ \| (\d+) \| (\d+) \|", line)
        if match:
            rows[match.group(1)] = (int(match.group(2)), int(match.group(3)))
    assert set(rows) == set(env_ids("all"))
    for env_id, (obs, actions) in rows.items():
        env = make(env_id)
        if env_id in env_ids("aec"):
            sizes = (env.observation_space("away")["observation"].shape[0], env.action_space("away").n)
        else:
            sizes = (env.observation_space.shape[0], env.action_space.n)
        assert sizes == (obs, actions), env_id


def test_the_cli_page_lists_every_subcommand():
    from dugout.cli.main import COMMANDS
    page = (ROOT / "docs/cli.md").read_text(encoding="utf-8")
    for name in COMMANDS:
        assert f"| `dugout {name}` |" in page, name


def test_the_benchmark_page_holds_one_generated_block():
    from dugout.studies import bench
    page = (ROOT / "docs/benchmarks.md").read_text(encoding="utf-8")
    assert page.count(bench.MARKDOWN_BEGIN) == page.count(bench.MARKDOWN_END) == 1
    assert bench._split_markdown(page) is not None
    assert re.search(r"\*Generated by `dugout bench [^`]*` on \d{4}-\d\d-\d\d", page)
