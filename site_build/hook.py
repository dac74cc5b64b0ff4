"""What lets `mkdocs build --strict` (and `mkdocs serve`) run from the repository's own mkdocs.yml.

The pages are written before any builder runs (``site_build/build.py``), to
build/site-src/ with build/mkdocs.yml, and every builder can read that one.
Run against the root's mkdocs.yml instead, mkdocs loads this hook, which
writes the pages first and points the build at them, with the navigation
from course/manifest.toml. build/mkdocs.yml sets no hook: it already has its
pages.
"""

from __future__ import annotations

from site_build.build import ROOT, build_pages, navigation


def on_config(config):
    built = build_pages(ROOT / "build")
    config.docs_dir = str(built.parent / "site-src")
    config.site_dir = str(built.parent / "site")
    config.nav = navigation()
    return config
