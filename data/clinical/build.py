"""Builds the clinical negation set (clinical.jsonl) from its annotated source notes.txt.

notes.txt holds invented clinical-style sentences grouped in notes; a concept is marked in
the text as ``[concept]-`` (negated) or ``[concept]+`` (not negated). Every sentence of a
note goes to the note's split (dev or test), so the splits share no note. The output has
one sentence a line: {"id", "split", "pattern", "kind", "text", "concepts": [{"start", "end",
"text", "negated"}]} with character offsets into text.

python data/clinical/build.py            # writes data/clinical/clinical.jsonl, prints the count table
python data/clinical/build.py --check    # fails if clinical.jsonl differs from notes.txt

The set is scored like the concept-level evaluation of NegEx (Chapman et al. 2001): each
concept is one entity, negated or not.
"""
import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "notes.txt"
OUTPUT = HERE / "clinical.jsonl"
SPLITS = ("dev", "test")
MARK = re.compile(r"\[([^\[\]]+)\]([+-])")
HEADER = re.compile(r"^== (\S+) (\S+) (\S+)$")
PATTERN = re.compile(r"^[a-z][a-z-]*$")


def parse_notes(text: str, source: str = "notes.txt") -> List[Dict[str, Any]]:
    """The sentence records of an annotated notes file.

    text (str): the file's content.
    source (str): its name, for error messages.
    RETURNS (List[Dict[str, Any]]): one record per sentence, in file order.
    """
    records: List[Dict[str, Any]] = []
    note: Optional[Dict[str, str]] = None
    counter = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        where = f"{source}:{lineno}"
        line = line.rstrip()
        if not line or line.startswith("#"):
            continue
        header = HEADER.match(line)
        if header:
            name, split, kind = header.groups()
            if split not in SPLITS:
                raise ValueError(f"{where}: split must be one of {SPLITS}, got {split!r}")
            note, counter = {"name": name, "split": split, "kind": kind}, 0
            continue
        if line.startswith("=="):
            raise ValueError(f"{where}: a note header is '== NOTE_ID SPLIT KIND', got {line!r}")
        if note is None:
            raise ValueError(f"{where}: a sentence before the first note header")
        pattern, sep, marked = line.partition(" | ")
        if not sep or not PATTERN.match(pattern):
            raise ValueError(f"{where}: a sentence line is 'PATTERN | TEXT', got {line!r}")
        counter += 1
        records.append({"id": f"{note['name']}-{counter:02d}", "split": note["split"], "pattern": pattern,
                        "kind": note["kind"], **unmark(marked, where)})
    return records


def unmark(marked: str, where: str) -> Dict[str, Any]:
    """The plain text and concept offsets of a marked-up sentence."""
    text, concepts, last = "", [], 0
    for m in MARK.finditer(marked):
        text += marked[last:m.start()]
        start = len(text)
        text += m.group(1)
        concepts.append({"start": start, "end": len(text), "text": m.group(1), "negated": m.group(2) == "-"})
        last = m.end()
    text += marked[last:]
    if "[" in text or "]" in text:
        raise ValueError(f"{where}: an unclosed or unlabelled concept mark in {marked!r}")
    if not concepts:
        raise ValueError(f"{where}: a sentence without concepts: {marked!r}")
    return {"text": text, "concepts": concepts}


def pattern_table(records: Iterable[Dict[str, Any]]) -> List[str]:
    """The Markdown table of sentences and concepts per pattern and split."""
    rows: Dict[str, Counter] = {}
    for rec in records:
        c = rows.setdefault(rec["pattern"], Counter())
        c[rec["split"], "sentences"] += 1
        for con in rec["concepts"]:
            c[rec["split"], "negated" if con["negated"] else "affirmed"] += 1
    total: Counter = sum(rows.values(), Counter())
    lines = ["| pattern | dev sentences | dev negated | dev affirmed | test sentences | test negated | "
             "test affirmed |", "|---|---|---|---|---|---|---|"]
    for name, c in sorted(rows.items()) + [("**total**", total)]:
        lines.append(f"| {name} | " + " | ".join(str(c[s, k]) for s in SPLITS
                                                  for k in ("sentences", "negated", "affirmed")) + " |")
    return lines


def to_jsonl(records: Sequence[Dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if clinical.jsonl is not up to date")
    args = parser.parse_args(argv)
    records = parse_notes(SOURCE.read_text(encoding="utf-8"), SOURCE.name)
    content = to_jsonl(records)
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != content:
            print(f"{OUTPUT} is not built from {SOURCE}; run python {Path(__file__).name}", file=sys.stderr)
            return 1
    else:
        tmp = OUTPUT.with_suffix(".jsonl.tmp")
        tmp.write_text(content, encoding="utf-8")
        tmp.replace(OUTPUT)
    print("\n".join(pattern_table(records)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
