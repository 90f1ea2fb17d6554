"""Fixtures for the kgate module tests: the module from the build dir, the CLI, and the corpus.

ctest sets KGATE_PYTHON_MODULE_DIR (where the kgate package was built: its parent), KGATE_CLI (the kgate executable) and
KGATE_SOURCE_DIR; the module must import from there and nowhere else.
"""
import os
import pathlib
import sys

import pytest

MODULE_DIR = os.environ["KGATE_PYTHON_MODULE_DIR"]
sys.path.insert(0, MODULE_DIR)


@pytest.fixture(scope="session")
def kgate():
    import kgate as module
    assert pathlib.Path(module.__file__).parent.parent == pathlib.Path(MODULE_DIR), module.__file__
    return module


@pytest.fixture(scope="session")
def source_dir():
    return pathlib.Path(os.environ["KGATE_SOURCE_DIR"])


@pytest.fixture(scope="session")
def cli():
    return os.environ["KGATE_CLI"]


def corpus_files(root):
    return sorted(p for p in (root / "corpus").rglob("*") if p.suffix in (".py", ".cu", ".cuh", ".cpp") and p.is_file())
