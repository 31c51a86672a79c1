"""The package is typed (PEP 561 ``py.typed``, shipped as package data) and ``make test``
type-checks it with mypy before it runs the tests."""
import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_py_typed_is_shipped():
    assert (REPO / "spacy_negation" / "py.typed").is_file()
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg", encoding="utf-8")
    patterns = [p.strip() for p in setup["options.package_data"]["spacy_negation"].split(",")]
    assert "py.typed" in patterns


def test_mypy_config_checks_the_package():
    config = configparser.ConfigParser()
    config.read(REPO / "mypy.ini", encoding="utf-8")
    assert config["mypy"]["files"].strip() == "spacy_negation"
    assert config.getboolean("mypy", "disallow_untyped_defs")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_test_runs_mypy_before_pytest():
    out = subprocess.run(["make", "-n", "test"], cwd=REPO, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    mypy = [k for k, line in enumerate(out) if "-m mypy" in line]
    pytest_ = [k for k, line in enumerate(out) if "-m pytest" in line]
    assert mypy and pytest_ and mypy[0] < pytest_[0]
