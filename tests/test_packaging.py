"""What ``pip install`` of a clone (not editable) ships: every package folder of the
source tree is in pyproject's package list, and every data file in a listed package is
matched by its package data, so an installed dugout has what an editable one has."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
PACKAGES = set(CONFIG["packages"])
DIRS = CONFIG["package-dir"]
DATA = CONFIG.get("package-data", {})
SKIP = {"__pycache__"}


def _folder(package: str) -> Path:
    """The source folder of ``package`` by the package-dir mapping (longest prefix)."""
    best = max((p for p in DIRS if package == p or package.startswith(p + ".")), key=len)
    rest = package[len(best):].lstrip(".")
    return ROOT / DIRS[best] / Path(*rest.split(".")) if rest else ROOT / DIRS[best]


def _python_folders() -> set[Path]:
    found = set()
    for top in {ROOT / d for p, d in DIRS.items() if p != "dugout"}:
        for path in top.rglob("*.py"):
            if not SKIP & set(path.parts):
                found.add(path.parent)
    return found


def test_every_folder_of_python_modules_is_a_listed_package():
    listed = {_folder(p).resolve() for p in PACKAGES}
    missing = sorted(str(f.relative_to(ROOT)) for f in _python_folders() if f.resolve() not in listed)
    assert not missing, f"folders of modules pip would leave out (add them to packages): {missing}"


def _owner(path: Path, folders: dict[Path, str]) -> str | None:
    """The listed package whose folder is ``path``'s nearest ancestor."""
    for parent in path.parents:
        if parent in folders:
            return folders[parent]
    return None


def test_every_data_file_of_a_listed_package_is_shipped():
    """Files beside the modules of every package but the root one (the repository's top
    level: its README, pyproject and CI files are not the package's)."""
    folders = {_folder(p).resolve(): p for p in PACKAGES if p != "dugout"}
    unshipped = []
    for folder, package in sorted(folders.items()):
        for path in folder.rglob("*"):
            path = path.resolve()
            if path.is_dir() or path.suffix in (".py", ".pyc") or SKIP & set(path.parts):
                continue
            if _owner(path, folders) != package:
                continue                       # a file of a sub-package: its own entry
            relative = path.relative_to(folder).as_posix()
            if not any(fnmatch.fnmatch(relative, pattern) for pattern in DATA.get(package, [])):
                unshipped.append(f"{package}: {relative}")
    assert not unshipped, f"data files pip would leave out (add them to package-data): {unshipped}"
