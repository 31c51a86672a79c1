from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = (REPO / ".." / "shared").resolve()
CDSCO = SHARED / "corpora" / "cd-sco"
CDSCO_FILES = {
    "training": "SEM-2012-SharedTask-CD-SCO-training-09032012.txt",
    "dev": "SEM-2012-SharedTask-CD-SCO-dev-09032012.txt",
    "cardboard": "SEM-2012-SharedTask-CD-SCO-test-cardboard-GOLD.txt",
    "circle": "SEM-2012-SharedTask-CD-SCO-test-circle-GOLD.txt",
}


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
