"""The ``dugout`` command and its bad-argument table.

The table is generated: for every flag of every subcommand whose type comes from
:mod:`dugout.cli.args`, each text the type declares bad (``ArgType.bad``), and for a path
flag each wrong kind of path made on disk (a file where a folder is wanted, a folder where
a file is wanted, a path under a file, a missing file). The explicit rows of
``tests/cli_rows_*.py`` add what types cannot express (a checkpoint for another env, a
damaged card file, flags that do not go together).

Every row must: exit with status 2; print exactly one line on stderr, ``dugout COMMAND:
error: ...``, naming the flag; never start the work (the subcommand's ``run`` is replaced
by one that fails the test); leave no file behind.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_table import Row
from dugout.cli import args as cli_args
from dugout.cli.main import COMMANDS, main, parser_for, run_command

ROOT = Path(__file__).resolve().parents[1]


# -- the rows -----------------------------------------------------------------------------------
def _path_cases(kind: str) -> list[tuple[str, str, object]]:
    """(id, text with {tmp}, setup) for a path flag of ``kind``."""
    def a_file(tmp: Path) -> None:
        (tmp / "a-file").write_text("not a folder")

    def a_folder(tmp: Path) -> None:
        (tmp / "a-folder").mkdir()

    under = ("under-a-file", "{tmp}/a-file/sub/x.out", a_file)
    return {
        "out_dir": [("a-file", "{tmp}/a-file", a_file), under],
        "out_file": [("a-folder", "{tmp}/a-folder", a_folder), under],
        "in_file": [("missing", "{tmp}/no-such-file.json", None),
                    ("a-folder", "{tmp}/a-folder", a_folder)],
        "in_dir": [("missing", "{tmp}/no-such-folder", None), ("a-file", "{tmp}/a-file", a_file)],
    }[kind]


def _generated_rows() -> list[Row]:
    rows = []
    for name, command in COMMANDS.items():
        if command.function("configure") is None:
            continue                          # not on the shared checks: the coverage test fails
        for action in parser_for(command)._actions:
            flag = max(action.option_strings, key=len, default=None)
            kind = action.type
            if flag is None or not isinstance(kind, cli_args.ArgType):
                continue
            n = action.nargs if isinstance(action.nargs, int) else 1
            texts = [(bad, bad, None) for bad in kind.bad]
            if kind.paths:
                texts += _path_cases(kind.paths)
            for _, text, setup in texts:
                rows.append(Row(name, (flag, *[text] * n), flag.lstrip("-").split("-")[0],
                                setup=setup))
    return rows


def _explicit_rows() -> list[Row]:
    rows = []
    for path in sorted(Path(__file__).parent.glob("cli_rows_*.py")):
        module = importlib.import_module(path.stem)
        rows += module.ROWS
    return rows


GENERATED = _generated_rows()
EXPLICIT = _explicit_rows()


# -- running one --------------------------------------------------------------------------------
def _no_work(monkeypatch, command) -> None:
    module = importlib.import_module(command.module)
    attribute = f"run_{command.key}" if command.key else "run"

    def started(*a, **k):
        raise AssertionError(f"dugout {command.name} started its work before refusing its flags")

    monkeypatch.setattr(module, attribute, started)


def _refused(row: Row, tmp_path: Path, monkeypatch, capsys) -> str:
    fixtures, work = tmp_path / "fixtures", tmp_path / "work"
    fixtures.mkdir()
    work.mkdir()
    if row.setup is not None:
        row.setup(fixtures)
    before = sorted(p.relative_to(fixtures) for p in fixtures.rglob("*"))
    command = COMMANDS[row.command]
    _no_work(monkeypatch, command)
    monkeypatch.chdir(work)
    argv = [*command.example, *(a.replace("{tmp}", str(fixtures)) for a in row.argv)]
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_:
        run_command(row.command, argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2, (argv, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"more than one line for {argv}:\n{err}"
    assert lines[0].startswith(f"dugout {row.command}: error: "), lines[0]
    assert not list(work.iterdir()), f"{argv} left files behind: {list(work.iterdir())}"
    assert sorted(p.relative_to(fixtures) for p in fixtures.rglob("*")) == before, \
        f"{argv} wrote into the fixtures"
    return lines[0]


@pytest.mark.parametrize("row", GENERATED, ids=Row.id)
def test_each_bad_value_of_each_flag_is_one_line_naming_it(row, tmp_path, monkeypatch, capsys):
    line = _refused(row, tmp_path, monkeypatch, capsys)
    flag = row.argv[0]
    assert flag in line, line


@pytest.mark.parametrize("row", EXPLICIT, ids=Row.id)
def test_each_bad_case_found_by_hand_is_one_line_naming_the_flag(row, tmp_path, monkeypatch,
                                                                 capsys):
    line = _refused(row, tmp_path, monkeypatch, capsys)
    assert row.flag in line and row.says in line, line


def test_the_table_covers_every_subcommand_and_every_typed_flag():
    """Every subcommand has generated rows, and no flag that takes a value is left untyped
    (an untyped flag is one the shared checks never see)."""
    covered = {row.command for row in GENERATED}
    assert covered == set(COMMANDS)
    untyped = []
    for name, command in COMMANDS.items():
        if command.function("configure") is None:
            untyped.append(f"dugout {name} (no configure)")
            continue
        for action in parser_for(command)._actions:
            if not action.option_strings or action.nargs == 0 or action.choices is not None:
                continue                      # flags without a value, and choices
            if isinstance(action, argparse._HelpAction):
                continue
            if not isinstance(action.type, cli_args.ArgType) and action.type is not None \
                    or action.type is None and action.dest not in _FREE_TEXT:
                untyped.append(f"dugout {name} {action.option_strings[0]}")
    assert not untyped, f"flags that skip the shared checks: {untyped}"


#: Flags whose value is free text the subcommand checks itself in ``check`` (a team name,
#: a Ray address, a card id), each with an explicit row where it can be wrong.
_FREE_TEXT = {"teams", "address", "batters", "pitchers", "away", "home", "team", "opponent",
              "trainer", "title"}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_example_passes_the_checks_and_writes_nothing(name, tmp_path, monkeypatch, capsys):
    """The table's base argument lists are valid: they reach ``run`` (replaced here). A
    subcommand whose check needs an optional extra that is not installed refuses it in one
    line saying how to install it (the Ray ones: the main venv holds no Ray)."""
    command = COMMANDS[name]
    module = importlib.import_module(command.module)
    reached = []
    monkeypatch.setattr(module, f"run_{command.key}" if command.key else "run",
                        lambda ns: reached.append(ns))
    monkeypatch.chdir(tmp_path)
    if command.needs and importlib.util.find_spec(command.needs) is None:
        with pytest.raises(SystemExit) as exit_:
            run_command(name, list(command.example))
        err = capsys.readouterr().err.strip().splitlines()
        assert exit_.value.code == 2 and len(err) == 1, err
        assert f"pip install 'dugout-baseball[{command.needs}]'" in err[0], err[0]
    else:
        run_command(name, list(command.example))
        assert len(reached) == 1
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_subcommand_has_help(name, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([*name.split(), "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: dugout {name}")


def test_dugout_help_lists_every_subcommand_on_one_screen(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(f"  {name} " in out for name in COMMANDS)
    assert len(out.splitlines()) <= 40 and max(map(len, out.splitlines())) <= 100


def test_an_unknown_subcommand_is_one_line(capsys):
    assert main(["tournaments"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown subcommand 'tournaments'" in err[0]
    assert main(["solve"]) == 2
    assert "solve thats_baseball" in capsys.readouterr().err


def test_the_command_is_installed_beside_python():
    """The README's install (scripts/setup.sh: pip install -e .) puts ``dugout`` in the venv's
    bin folder, next to its python."""
    exe = Path(sys.executable).parent / ("dugout.exe" if os.name == "nt" else "dugout")
    assert exe.is_file(), f"no dugout command beside {sys.executable}"
    done = subprocess.run([str(exe), "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "tournament" in done.stdout
    done = subprocess.run([str(exe), "tournament", "--agents", "random", "--games", "3"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == ("dugout tournament: error: argument --games: must be an even "
                                   "number from 4 to 1000000000 (games a matchup), got '3'")


def test_python_m_dugout_studies_lists_and_runs_the_labs_subcommands(capsys):
    """``python -m dugout.studies`` lists the subcommands whose module is the lab's, and
    ``python -m dugout.studies NAME ...`` is ``dugout NAME ...`` (its errors too)."""
    from dugout.studies.__main__ import main as studies_main, studies
    lab = {name for name, c in COMMANDS.items() if c.module.startswith("dugout.studies.")}
    assert set(studies()) == lab and {"pipeline", "bench", "bench vector", "calibrate"} <= lab
    assert studies_main([]) == 0
    out = capsys.readouterr().out
    assert all(f"  {name} " in out for name in lab) and "  tournament " not in out
    assert studies_main(["tournament"]) == 2
    assert "unknown study 'tournament'" in capsys.readouterr().err
    done = subprocess.run([sys.executable, "-m", "dugout.studies", "bench", "--split"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == "dugout bench: error: --split needs --rounds R (R >= 1)"


# -- the shared types themselves ----------------------------------------------------------------
@pytest.mark.parametrize("text, value", [("0", 0), ("4294967295", 2**32 - 1), ("+7", 7),
                                         ("1_000", 1000)])
def test_a_seed_takes_every_value_numpy_takes(text, value):
    assert cli_args.seed(text) == value


@pytest.mark.parametrize("text", ["-1", "4294967296", "1.0", "1e3", "0x10", "", " ", "nan"])
def test_a_seed_refuses_the_rest_with_its_range(text):
    with pytest.raises(argparse.ArgumentTypeError, match="from 0 to 4294967295"):
        cli_args.seed(text)


def test_a_real_refuses_what_is_not_finite_or_out_of_range():
    rate = cli_args.real(0, 1, hi_open=True)
    assert rate("0") == 0.0 and rate("0.5") == 0.5
    for text in ["1", "-0.1", "nan", "inf", "x"]:
        with pytest.raises(argparse.ArgumentTypeError, match="at least 0 and less than 1"):
            rate(text)


def test_output_paths_are_checked_without_making_anything(tmp_path):
    target = tmp_path / "a" / "b" / "c"
    assert cli_args.out_dir(str(target)) == target and not (tmp_path / "a").exists()
    assert cli_args.out_file(str(target / "x.json")) == target / "x.json"
    assert not (tmp_path / "a").exists()
    (tmp_path / "f").write_text("")
    for bad in [tmp_path / "f", tmp_path / "f" / "g"]:
        with pytest.raises(argparse.ArgumentTypeError, match="is a file"):
            cli_args.out_dir(str(bad))
    with pytest.raises(argparse.ArgumentTypeError, match="is a folder"):
        cli_args.out_file(str(tmp_path))


def test_an_output_folder_that_cannot_be_written_is_refused(tmp_path, monkeypatch):
    """A folder the user may not write in (as root may write anywhere, the permission check
    is answered "no" for that folder, as the OS answers another user)."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real_access = os.access
    monkeypatch.setattr(os, "access",
                        lambda path, mode: False if Path(path) == locked else real_access(path, mode))
    with pytest.raises(argparse.ArgumentTypeError, match="cannot write in"):
        cli_args.out_dir(str(locked / "run"))
    with pytest.raises(argparse.ArgumentTypeError, match="not writable"):
        cli_args.out_dir(str(locked))
    with pytest.raises(argparse.ArgumentTypeError, match="cannot write in"):
        cli_args.out_file(str(locked / "x.json"))


def test_the_agent_reference_is_parsed_in_one_place():
    from dugout.agents.ref import AgentRef
    ref = AgentRef.parse("ppo:runs/x/model")
    assert ref.is_checkpoint and ref.path == "runs/x/model" and str(ref) == "ppo:runs/x/model"
    assert AgentRef.parse("heuristic") == AgentRef("name", "heuristic")
    assert not AgentRef.parse("never-steal").is_checkpoint
    for bad, says in [("", "empty"), ("ppo:", "checkpoint folder"), ("zzz:1", "unknown prefix"),
                      ("two words", "blanks"), (3, "by text")]:
        with pytest.raises(ValueError, match=says):
            AgentRef.parse(bad)
