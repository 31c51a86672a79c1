"""FairEval input files to counts and scores (Ortmann 2022): pairing target and system files
(or folders), streaming them block by block, and writing span files the reference tool
reads. The line formats are parsed by :mod:`.io`.
"""
from collections import deque
from pathlib import Path
from typing import (Any, Deque, Dict, Iterable, List, Mapping, Optional, Sequence, Set, TextIO,
                    Tuple, Union)

from ...errors import Errors
from .count import FairEvalCounts, check_focus, count_into
from .io import (DEFAULT_EXCLUDE, EMPTY_LINE, SPANS_FORMAT, SpanSentence,
                          parse_faireval_lines, parse_span_block)
from .score import PAPER_WEIGHTS, scores_from_counts
from .spans import FSpan
from ..textfile import check_input_file, iter_text_blocks


def format_span_sentences(sentences: Iterable[Sequence[FSpan]]) -> str:
    """Format sentences of spans as a FairEval span file (a dummy ``EMPTY`` line for a
    sentence without spans; a blank line between sentences; a final newline).

    sentences (Iterable[Sequence[FSpan]]): the spans per sentence.
    RETURNS (str): the file content.
    """
    blocks = []
    for spans in sentences:
        lines = [f"{s.label}\t{s.begin}\t{s.end}\t{', '.join(str(t) for t in sorted(s.tokens))}"
                 for s in spans]
        blocks.append("\n".join(lines) if lines else EMPTY_LINE)
    return "\n\n".join(blocks) + "\n" if blocks else ""


def write_span_file(sentences: Iterable[Sequence[FSpan]], output: Union[str, Path, TextIO]) -> None:
    """Write a FairEval span file (atomically for a path), readable by the reference tool.

    sentences (Iterable[Sequence[FSpan]]): the spans per sentence.
    output (Union[str, Path, TextIO]): a path or a text stream.
    """
    from ...util import atomic_write_text

    text = format_span_sentences(sentences)
    if hasattr(output, "write"):
        output.write(text)
    else:
        atomic_write_text(Path(output), text)


# --- files to scores --------------------------------------------------------------------

def pair_files(target: Union[str, Path], system: Union[str, Path]) -> List[Tuple[Path, Path]]:
    """Pair target and system inputs: two files (whatever their names), or two folders
    whose files (non-hidden, not recursive) are paired by name.

    target (Union[str, Path]): a file or folder.
    system (Union[str, Path]): a file or folder.
    RETURNS (List[Tuple[Path, Path]]): (target file, system file) pairs, sorted by name.
    """
    target, system = Path(target), Path(system)
    for p in (target, system):
        check_input_file(p, folder_ok=True)  # E130 missing, E970 a FIFO or device
    if target.is_file() and system.is_file():
        return [(target, system)]
    if not (target.is_dir() and system.is_dir()):
        raise ValueError(Errors.E266.format(target=target, system=system))

    def names(d: Path) -> Dict[str, Path]:
        return {p.name: p for p in d.iterdir() if p.is_file() and not p.name.startswith(".")}

    t, s = names(target), names(system)
    if t.keys() != s.keys():
        raise ValueError(Errors.E265.format(target=target, system=system,
                                            only_target=sorted(t.keys() - s.keys()) or "-",
                                            only_system=sorted(s.keys() - t.keys()) or "-"))
    if not t:
        raise ValueError(Errors.E267.format(path=target))
    return [(t[n], s[n]) for n in sorted(t)]


def count_files(target: Union[str, Path], system: Union[str, Path], *, focus: str = "target",
                ignore_punct: bool = False, punct_compat: bool = False,
                labels: Optional[Iterable[str]] = None,
                exclude: Iterable[str] = DEFAULT_EXCLUDE) -> FairEvalCounts:
    """Count FairEval errors of system files against target files.

    target (Union[str, Path]): the target file or folder.
    system (Union[str, Path]): the system file or folder (see :func:`pair_files`).
    focus (str): "target" or "system".
    ignore_punct (bool): remove punctuation from CoNLL2000 spans.
    punct_compat (bool): the reference's punctuation handling (see :func:`read_faireval_file`).
    labels (Optional[Iterable[str]]): evaluate only these labels (None = all); a label
        found in neither file is an error (E213).
    exclude (Iterable[str]): labels to drop (default: NONE, EMPTY).
    RETURNS (FairEvalCounts): the summed counts.
    """
    check_focus(focus)
    labels = None if labels is None else list(labels)
    exclude = list(exclude)
    opts: Dict[str, Any] = dict(ignore_punct=ignore_punct, punct_compat=punct_compat,
                                labels=labels, exclude=exclude)
    total = FairEvalCounts()
    seen: Set[str] = set()
    for tpath, spath in pair_files(target, system):
        _count_pair(total, tpath, spath, focus, seen, opts)
    if labels is not None:
        unknown = [label for label in labels if label not in seen]
        if unknown:
            raise ValueError(Errors.E213.format(unknown=", ".join(unknown),
                                                known=", ".join(sorted(seen - set(exclude))) or "no labels"))
    return total


def _parse_text_block(block: Tuple[int, str], path: Path, seen: Set[str],
                      opts: Dict[str, Any]) -> List[SpanSentence]:
    line, text = block
    if text == EMPTY_LINE and "EMPTY" in opts["exclude"]:  # the dummy of a sentence without spans
        seen.add("EMPTY")
        return [SpanSentence([], line, SPANS_FORMAT)]
    sent = parse_span_block(text, line, str(path), seen, opts["labels"], opts["exclude"])
    if sent is not None:
        return [sent]
    return list(parse_faireval_lines(text.split("\n"), path=str(path), seen=seen,
                                     first_line=line, **opts))


def _count_pair(total: FairEvalCounts, tpath: Path, spath: Path, focus: str, seen: Set[str],
                opts: Dict[str, Any]) -> None:
    """Count one pair of files, streamed block by block (blank-line separated); a system
    block equal to its target block is parsed once, and an equal dummy block of a sentence
    without spans is counted without parsing."""
    tq: Deque[SpanSentence] = deque()
    sq: Deque[SpanSentence] = deque()
    n_t = n_s = 0
    tblocks = iter_text_blocks(tpath)
    sblocks = iter_text_blocks(spath)
    empty_dummy = "EMPTY" in opts["exclude"]
    for tb in tblocks:
        sb = next(sblocks, None)
        if sb is not None and sb[1] == tb[1] and not tq and not sq:
            # The same block on both sides, nothing pending (the common case).
            if empty_dummy and tb[1] == EMPTY_LINE:
                seen.add("EMPTY")
                total.n_sentences += 1
                n_t += 1
                n_s += 1
                continue
            for ts in _parse_text_block(tb, tpath, seen, opts):
                count_into(total, ts.spans, ts.spans, focus)
                n_t += 1
                n_s += 1
            continue
        tsents = _parse_text_block(tb, tpath, seen, opts)
        ssents = [] if sb is None else _parse_text_block(sb, spath, seen, opts)
        n_t, n_s = _count_queued(total, tq, sq, tsents, ssents, (tpath, spath), focus, n_t, n_s)
    for sb in sblocks:
        n_t, n_s = _count_queued(total, tq, sq, [], _parse_text_block(sb, spath, seen, opts),
                                 (tpath, spath), focus, n_t, n_s)
    if tq or sq:
        raise ValueError(Errors.E255.format(n_target=n_t, n_system=n_s,
                                            where=f"{tpath} vs {spath}"))


def _count_queued(total: FairEvalCounts, tq: Deque[SpanSentence], sq: Deque[SpanSentence],
                  tsents: List[SpanSentence], ssents: List[SpanSentence],
                  paths: Tuple[Path, Path], focus: str, n_t: int, n_s: int) -> Tuple[int, int]:
    """Queue the sentences of a target and a system block and count the pairs now
    complete (blocks may hold several sentences); RETURNS the updated sentence numbers."""
    tq.extend(tsents)
    sq.extend(ssents)
    while tq and sq:
        ts, ss = tq.popleft(), sq.popleft()
        if ts.n_tokens is not None and ss.n_tokens is not None and ts.n_tokens != ss.n_tokens:
            raise ValueError(Errors.E264.format(target_path=paths[0], target_line=ts.line,
                                                n_target=ts.n_tokens, system_path=paths[1],
                                                system_line=ss.line, n_system=ss.n_tokens))
        count_into(total, ts.spans, ss.spans, focus)
    return n_t + len(tsents), n_s + len(ssents)


def evaluate_files(target: Union[str, Path], system: Union[str, Path], *, focus: str = "target",
                   weights: Union[str, Mapping[str, Mapping[str, float]], None] = PAPER_WEIGHTS,
                   ignore_punct: bool = False, punct_compat: bool = False,
                   labels: Optional[Iterable[str]] = None,
                   exclude: Iterable[str] = DEFAULT_EXCLUDE) -> Dict[str, Any]:
    """FairEval scores of system files against target files (see :func:`count_files`).

    weights (Union[str, Dict, None]): weights of "weighted" (default: the paper's).
    RETURNS (Dict[str, Any]): see :func:`spacy_negation.metrics.faireval.scores_from_counts`.
    """
    counts = count_files(target, system, focus=focus, ignore_punct=ignore_punct,
                         punct_compat=punct_compat, labels=labels, exclude=exclude)
    return scores_from_counts(counts, weights)
