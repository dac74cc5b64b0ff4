"""Executing a lesson notebook in place, so its committed outputs are its real outputs.

    python -m course.notebooks notebooks/lesson02.ipynb

runs every cell top to bottom in a fresh kernel, from the notebook's own folder,
and saves the outputs without execution timestamps. nbval later re-runs it and
compares every output, so a notebook edited by hand, or one whose outputs vary,
fails the tests. A prediction cell (tagged ``prediction``, course/predictions.py)
is run like the others but saved without its output: its output is the answer.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import nbformat
from jupyter_client import KernelManager
from nbclient import NotebookClient

from course.predictions import PREDICTION_TAG


def execute(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        cell.get("metadata", {}).pop("execution", None)
    with tempfile.TemporaryDirectory() as sockets:
        # The kernel talks to us over local sockets in a private folder (IPC), not over TCP:
        # nothing listens on the network, and the kernel has no plain-TCP warning to print.
        manager = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(sockets) / "kernel"))
        client = NotebookClient(notebook, km=manager, timeout=600, kernel_name="python3", record_timing=False,
                                coalesce_streams=True,  # one output per stream, however the kernel chunked it
                                resources={"metadata": {"path": str(path.parent)}})
        try:
            client.execute()
        finally:  # a kernel manager we made is ours to stop: the kernel must not outlive this process
            if manager.has_kernel:
                manager.shutdown_kernel(now=True)
    for cell in notebook.cells:
        if PREDICTION_TAG in cell.get("metadata", {}).get("tags", []):
            cell.outputs = []  # committed without the answer; the student runs it to see it
    nbformat.write(notebook, path)


def main(argv: list[str] | None = None) -> None:
    paths = [Path(arg) for arg in (sys.argv[1:] if argv is None else argv)]
    if not paths or not all(path.suffix == ".ipynb" and path.is_file() for path in paths):
        sys.exit("usage: python -m course.notebooks NOTEBOOK.ipynb [...]")
    for path in paths:
        execute(path)
        print(f"executed {path}")


if __name__ == "__main__":
    main()
