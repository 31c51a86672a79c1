"""Four *SEM sentences with a gold annotation and two systems, as files (fixture ``files``):
shared by the tests of compare, seeds, vote and the systems report."""
from pathlib import Path
from typing import List, Tuple

import pytest

# Four sentences (token, POS, then per instance: cue, scope, event; "" = no negation).
# Gold: S1 "He did not go ." (cue not), S2 "No one came ." (cue No), S3 "She never lies ."
# (cue never), S4 "The sun rose ." without negation.
# A: S1 right, S2 scope without "came", S3 missed.  B: S1, S2 right, S3 scope without "lies".
SENTENCES = [
    ("He did not go .", "PRP VBD RB VB ."),
    ("No one came .", "DT NN VBD ."),
    ("She never lies .", "PRP RB VBZ ."),
    ("The sun rose .", "DT NN VBD ."),
]
GOLD = [[(2, {0, 1, 3})], [(0, {1, 2})], [(1, {0, 2})], []]
SYS_A = [[(2, {0, 1, 3})], [(0, {1})], [], []]
SYS_B = [[(2, {0, 1, 3})], [(0, {1, 2})], [(1, {0})], []]


def starsem_text(instances: List[List[Tuple[int, set]]]) -> str:
    """A *SEM file of SENTENCES with one (cue token, scope tokens) per instance."""
    blocks = []
    for k, ((text, tags), insts) in enumerate(zip(SENTENCES, instances)):
        lines = []
        for i, (form, tag) in enumerate(zip(text.split(), tags.split())):
            cols = ["d", str(k), str(i), form, form.lower(), tag, "*"]
            if not insts:
                cols.append("***")
            for cue, scope in insts:
                cols += [form if i == cue else "_", form if i in scope else "_", "_"]
            lines.append("\t".join(cols))
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


@pytest.fixture()
def files(tmp_path: Path) -> Tuple[Path, Path, Path]:
    out = []
    for name, insts in (("gold", GOLD), ("a", SYS_A), ("b", SYS_B)):
        path = tmp_path / f"{name}.txt"
        path.write_text(starsem_text(insts), encoding="utf-8")
        out.append(path)
    return out[0], out[1], out[2]
