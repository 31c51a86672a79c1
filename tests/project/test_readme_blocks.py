"""Every Python block of the README runs as written.

A block runs against the installed models it names (``make project`` installs the default
``en_negation_general``); where a model it needs is not installed, against a tiny trained
model: every ``en_negation_*`` name becomes the tiny model's path, and
``nlp.add_pipe("negation", ...)`` without a model gets it. A block that cannot run fails.
"""
import contextlib
import io
import re
from pathlib import Path
from typing import List

import pytest
import spacy

from util import REPO

README = REPO / "README.md"
MODEL_NAME = re.compile(r"\ben_negation_\w+\b")
#: add_pipe("negation") without a model: no config, or a config that does not start with one
ADD_PIPE = re.compile(r'add_pipe\("negation"(\)|, config=\{(?!"model"))')


def python_blocks() -> List[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def with_model(block: str, path: str) -> str:
    """The block with every model it names, and the default model, replaced by ``path``."""
    code = MODEL_NAME.sub(path, block)

    def add_model(match: "re.Match[str]") -> str:
        tail = match.group(1)
        if tail == ")":
            return f'add_pipe("negation", config={{"model": {path!r}}})'
        return f'add_pipe("negation", config={{"model": {path!r}, '

    return ADD_PIPE.sub(add_model, code)


def test_readme_has_python_blocks() -> None:
    blocks = python_blocks()
    assert len(blocks) >= 2
    assert any('nlp.add_pipe("negation")' in b for b in blocks), "the README shows the default model"


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_readme_python_block_runs(index: int, trained_cnn_dir: Path) -> None:
    block = python_blocks()[index]
    names = set(MODEL_NAME.findall(block))
    if "negation" in block and "add_pipe" in block:
        names.add("en_negation_general")
    if all(spacy.util.is_package(name) for name in names):
        code = block
    else:
        code = with_model(block, str(trained_cnn_dir.resolve()))
        # the tiny model knows the test sentences, not the README's
        assert MODEL_NAME.search(code) is None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{README}:block{index}", "exec"), {"__name__": "__readme__"})


def test_with_model_substitutes_every_form() -> None:
    block = ('nlp.add_pipe("negation")\nnlp.add_pipe("negation", config={"model": "en_negation_sfu"})\n'
             'nlp.add_pipe("negation", config={"cue_patterns": "en_clinical"})\n')
    code = with_model(block, "/m")
    assert code.splitlines() == ['nlp.add_pipe("negation", config={"model": \'/m\'})',
                                 'nlp.add_pipe("negation", config={"model": "/m"})',
                                 'nlp.add_pipe("negation", config={"model": \'/m\', "cue_patterns": "en_clinical"})']
