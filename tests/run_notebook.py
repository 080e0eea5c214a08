"""Executes a notebook headless (Debian's python3-nbclient and python3-ipykernel) in its own directory, as a reader
would open it, and fails with the cell's error if any cell fails. Usage: run_notebook.py NOTEBOOK [TIMEOUT_S]"""

import os
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def main() -> int:
    path = os.path.abspath(sys.argv[1])
    timeout = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": os.path.dirname(path)}})
    try:
        client.execute()
    except CellExecutionError as error:
        print(f"{path}: a cell failed:\n{error}", file=sys.stderr)
        return 1
    cells = sum(1 for c in notebook.cells if c.cell_type == "code")
    print(f"{path}: {cells} code cells ran")
    return 0


if __name__ == "__main__":
    sys.exit(main())
