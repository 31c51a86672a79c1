"""The main job, `make project` (the `all` workflow), leaves the checkout as it found it:
every file it writes is an ignored path, so `make test` after it tests the committed files
(a committed report rewritten by one run's seed failed the README's checks)."""
import shlex
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest
from weasel.util import load_project_config

REPO = Path(__file__).resolve().parents[2]
#: The options by which the project's commands name a file or folder they write.
OUTPUT_OPTIONS = ("--output", "--out", "--out-dir", "--model-out", "--meta", "-o")


def _written(command: Dict) -> List[str]:
    """The paths a project command writes: its declared outputs and the values of its output
    options (``spacy train … --output DIR``, ``--out-dir``, …)."""
    paths = list(command.get("outputs") or []) + list(command.get("outputs_no_cache") or [])
    for line in command["script"]:
        words = shlex.split(line)
        for option, value in zip(words, words[1:]):
            if option in OUTPUT_OPTIONS:
                paths.append(value)
    return paths


def _ignored(paths: List[str]) -> List[str]:
    """The paths git ignores in this checkout (``git check-ignore``, exit 1 when none is)."""
    result = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=REPO, text=True,
                            input="\n".join(paths) + "\n", capture_output=True)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout.split()


@pytest.fixture(scope="module")
def project():
    return load_project_config(REPO, interpolate=True)


def test_the_main_job_writes_only_ignored_paths(project):
    commands = {c["name"]: c for c in project["commands"]}
    written = [path for step in project["workflows"]["all"] for path in _written(commands[step])]
    assert any(path.startswith("metrics/general/report/") for path in written)
    assert written and sorted(set(_ignored(written))) == sorted(set(written))


def test_a_committed_report_in_the_main_job_would_fail_this_check(project):
    """The check itself: a step writing results/general.json, as `all` once did, is caught."""
    step = {"script": ["python scripts/general_report.py --out-dir results --keep"],
            "outputs": ["results/general.json"]}
    written = _written(step)
    assert written == ["results/general.json", "results"]
    assert _ignored(written) == []


def test_the_committed_general_report_comes_from_the_seeds_workflow(project):
    commands = {c["name"]: c for c in project["commands"]}
    assert "report-general-seeds" in project["workflows"]["general-seeds"]
    assert "results/general.json" in commands["report-general-seeds"]["outputs"]
