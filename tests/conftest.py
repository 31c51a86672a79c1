from pathlib import Path

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
