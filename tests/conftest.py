import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = (REPO / ".." / "shared").resolve()


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The read-only ../shared folder beside the checkout (skips if absent)."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not beside the checkout")
    return SHARED


@pytest.fixture(scope="session")
def cdsco_dir(shared_dir: Path) -> Path:
    path = shared_dir / "corpora" / "cd-sco"
    if not path.is_dir():
        pytest.skip("CD-SCO corpus not found in ../shared/corpora/cd-sco")
    return path


def _run_script(name: str, *args: object, cwd: "Path | None" = None) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, str(REPO / "scripts" / name), *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="session")
def run_script() -> Callable[..., "subprocess.CompletedProcess[str]"]:
    """Run ``scripts/NAME ARGS...`` in a subprocess with this Python (and the inherited
    PYTHONPATH); returns the completed process with its text output."""
    return _run_script
