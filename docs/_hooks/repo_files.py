"""mkdocs hook: links from the docs to repository files outside ``docs/``.

mkdocs builds only ``docs/``, and a relative link that leaves it is a broken link to
``mkdocs build --strict``. So the pages link to a repository file from the repository's
root, ``[RULES.md](/envs/showdown/RULES.md)``, which the repository host resolves as it is.
For the site, this hook

* checks that every such link names a file of the repository (a warning otherwise, which
  fails a strict build, as a broken link between pages does);
* copies each linked file into the site at the same path, and rewrites the links into
  relative ones to the copy, so they work wherever the site is served.
"""

from __future__ import annotations

import logging
import posixpath
import re
import shutil
from pathlib import Path

log = logging.getLogger("mkdocs.hooks.repo_files")

#: a markdown link (or image) whose target starts with one slash
_MD_LINK = re.compile(r"\]\((/[^/)\s#][^)\s#]*)(#[^)\s]*)?\)")
_HREF = re.compile(r'(href|src)="/([^/"#][^"#]*)(#[^"]*)?"')

_root = Path(".")
_linked: set[str] = set()


def on_config(config):
    global _root
    _root = Path(config.config_file_path).resolve().parent
    _linked.clear()
    return config


def _outside_code(markdown: str) -> str:
    """The markdown less its fenced code blocks and inline code."""
    markdown = re.sub(r"^(```|~~~).*?^\1", "", markdown, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", markdown)


def on_page_markdown(markdown, page, config, files):
    for match in _MD_LINK.finditer(_outside_code(markdown)):
        path = match.group(1).lstrip("/")
        if (_root / path).is_file() and not path.startswith(("docs/", "../")):
            _linked.add(path)
        else:
            log.warning(f"Doc file '{page.file.src_uri}' links to '/{path}', which is not a "
                        f"file of the repository outside docs/ (link to pages relatively)")
    return markdown


def on_page_content(html, page, config, files):
    here = page.url if page.url.endswith("/") or not page.url else posixpath.dirname(page.url)

    def relative(match: re.Match) -> str:
        attribute, path, anchor = match.group(1), match.group(2), match.group(3) or ""
        if path not in _linked:
            return match.group(0)
        return f'{attribute}="{posixpath.relpath(path, here or ".")}{anchor}"'

    return _HREF.sub(relative, html)


def on_post_build(config):
    site = Path(config.site_dir)
    for path in sorted(_linked):
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_root / path, target)
