"""The plain records the metrics count on, the streaming *SEM reader, the spaCy-free
command line, bad input of ``evaluate``/``faireval`` and bounded memory."""
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import List

import pytest

from spacy_negation.cli import main
from spacy_negation.errors import NegationFormatError
from spacy_negation.metrics.evaluate import evaluate_files, evaluate_sentences, to_json
from spacy_negation.metrics.records import (NegationRecord, SentenceRecord, cells, cue_type,
                                            normalize_parts)
from spacy_negation.metrics.starsem.io import (iter_aligned, iter_records, iter_text_blocks,
                                               sentence_record)
from spacy_negation.corpora.starsem import Instance, Sentence, read_starsem, write_starsem

from starsem_cases import CASES, GOLD
from util import modules_after



def _write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def _gold_system(tmp_path: Path) -> List[Path]:
    gold = _write(tmp_path / "gold.txt", GOLD)
    system = _write(tmp_path / "system.txt", GOLD.replace("\tI\t_\n", "\t_\t_\n", 1))
    return [gold, system]


# --- records ------------------------------------------------------------------------------

def test_cells_join_parts_per_token_and_normalize_merges() -> None:
    tokens = ["She", "paced", "restlessly"]
    assert normalize_parts([(2, 8, 10), (0, 0, 3), (2, 0, 4), (2, 3, 5)]) == (
        (0, 0, 3), (2, 0, 5), (2, 8, 10))
    assert cells(tokens, normalize_parts([(2, 0, 4), (2, 8, 10), (1, 0, 5)])) == (
        (1, "paced"), (2, "restly"))
    assert cue_type(tokens, ((2, "less"),)) == "affixal"
    assert cue_type(tokens, ((0, "She"), (1, "paced"))) == "multiword"
    assert cue_type(tokens, ((0, "She"),)) == "normal"


def test_sentence_record_from_a_parsed_sentence(tmp_path: Path) -> None:
    sent = read_starsem(_write(tmp_path / "g.txt", GOLD))[0]
    rec = sentence_record(sent)
    assert list(rec.tokens) == [row.form for row in sent.rows]
    assert rec.punct == [False, False, False, False, True]
    assert rec.instances == [NegationRecord(((2, 0, 3),), ((0, 0, 1), (1, 0, 3), (3, 0, 2)),
                                            ((3, 0, 2),))]


@pytest.mark.parametrize("case", CASES)
def test_streaming_reader_equals_strict_reader(shared_dir: Path, case: str) -> None:
    d = shared_dir / "fixtures" / "reference-scores" / "starsem" / case
    for name in ("gold.txt", "system.txt"):
        strict = [sentence_record(s) for s in read_starsem(d / name)]
        streamed = list(iter_records(d / name))
        assert [(list(r.tokens), list(r.punct), [tuple(i) for i in r.instances]) for r in streamed] \
            == [(list(r.tokens), list(r.punct), [tuple(i) for i in r.instances]) for r in strict]


def _perturbed(sentences: List[Sentence]) -> List[Sentence]:
    """Drop every 3rd instance, cut the first scope token of every 2nd, and add a
    one-token instance to every 5th sentence without negation."""
    out, k = [], 0
    for n, sent in enumerate(sentences):
        insts = []
        for inst in sent.instances:
            k += 1
            if k % 3:
                insts.append(Instance(list(inst.cue), list(inst.scope[k % 2:]), list(inst.event)))
        if not sent.instances and n % 5 == 0:
            insts.append(Instance([(0, sent.rows[0].form)], [], []))
        out.append(Sentence(rows=sent.rows, instances=insts, line=sent.line))
    return out


def test_streamed_evaluation_equals_in_memory_on_cdsco(cdsco_dir: Path, tmp_path: Path) -> None:
    gold_path = cdsco_dir / "SEM-2012-SharedTask-CD-SCO-test-cardboard-GOLD.txt"
    gold = read_starsem(gold_path)
    system = _perturbed(gold)
    system_path = tmp_path / "system.txt"
    write_starsem(system, system_path)
    streamed = to_json(evaluate_files(gold_path, system_path))
    in_memory = to_json(evaluate_sentences(gold, system))
    assert streamed == in_memory
    assert 0 < streamed["starsem"]["full_negation"]["f"] < 1


def test_identical_blocks_are_parsed_once(tmp_path: Path) -> None:
    gold = _write(tmp_path / "gold.txt", GOLD)
    pairs = list(iter_aligned(gold, gold))
    assert len(pairs) == 2 and all(g is s for g, s in pairs)


# --- no spaCy, thinc or torch -------------------------------------------------------------

def test_metrics_package_imports_no_spacy() -> None:
    metrics = Path(__file__).resolve().parents[2] / "spacy_negation" / "metrics"
    names = sorted(".".join(p.relative_to(metrics).with_suffix("").parts).removesuffix(".__init__")
                   for p in metrics.rglob("*.py") if p.parent != metrics or p.stem != "__init__")
    assert {"records", "starsem", "starsem.io", "evaluate", "faireval", "faireval.count", "nis",
            "starsem.evaluation"} <= set(names)
    code = "\n".join(f"import spacy_negation.metrics.{n}" for n in names)
    assert modules_after(code) == []


@pytest.mark.parametrize("args", [["--help"], ["evaluate", "--help"], ["faireval", "--help"],
                                  ["evaluate", "GOLD", "GOLD", "--json"],
                                  ["faireval", "SPANS", "SPANS", "--json"]])
def test_command_line_imports_no_spacy(tmp_path: Path, args: List[str]) -> None:
    files = {"GOLD": str(_write(tmp_path / "gold.txt", GOLD)),
             "SPANS": str(_write(tmp_path / "spans.tsv", "A\t1\t2\t1, 2\n"))}
    argv = [files.get(a, a) for a in args]
    code = textwrap.dedent(f"""
        import contextlib, io
        from spacy_negation.cli import main
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                main({argv!r})
            except SystemExit:
                pass
    """)
    assert modules_after(code) == []


def test_help_lists_every_command_with_its_summary() -> None:
    res = subprocess.run([sys.executable, "-m", "spacy_negation", "--help"], capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0
    assert "score a *SEM system file against a gold file" in res.stdout
    assert "FairEval span scores" in res.stdout


# --- --metrics ------------------------------------------------------------------------

def test_metrics_option_any_subset(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    gold, system = _gold_system(tmp_path)
    assert main(["evaluate", str(gold), str(system), "--json"]) == 0
    full = json.loads(capsys.readouterr().out)
    for subset in ("starsem", "nis", "faireval", "nis,starsem", "faireval,nis"):
        assert main(["evaluate", str(gold), str(system), "--json", "--metrics", subset]) == 0
        out = json.loads(capsys.readouterr().out)
        assert set(out) == set(subset.split(","))
        assert all(out[k] == full[k] for k in out)
    assert main(["evaluate", str(gold), str(system), "--metrics", "nis"]) == 0
    text = capsys.readouterr().out
    assert "NIS" in text and "Cues:" not in text and "FairEval" not in text
    assert main(["evaluate", str(gold), str(system), "--metrics", "starsem,bleu"]) == 1
    assert "[NEG-E215]" in capsys.readouterr().err


# --- bad input ---------------------------------------------------------------------------------

def test_bom_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    gold, system = _gold_system(tmp_path)
    assert main(["evaluate", str(gold), str(system), "--json"]) == 0
    plain = capsys.readouterr().out
    bom_gold = _write(tmp_path / "bom_gold.txt", "\ufeff" + GOLD)
    bom_system = _write(tmp_path / "bom_system.txt", "\ufeff" + system.read_text("utf-8"))
    assert main(["evaluate", str(bom_gold), str(bom_system), "--json"]) == 0
    assert capsys.readouterr().out == plain


def test_faireval_bom_is_no_label(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = _write(tmp_path / "t.tsv", "\ufeffA\t1\t1\t1\nB\t2\t2\t2\n")
    system = _write(tmp_path / "s.tsv", "A\t1\t1\t1\nB\t2\t3\t2, 3\n")
    assert main(["faireval", str(target), str(system), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["target_labels"]) == {"A", "B"}
    assert out["traditional"]["f"] == 0.5


def test_empty_cell_is_an_error_with_file_and_line(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture) -> None:
    gold = _write(tmp_path / "gold.txt", GOLD)
    for bad in (GOLD.replace("\tnot\t_\t_", "\t\t_\t_"), GOLD.replace("\t_\tgo\tgo", "\t_\t\tgo")):
        system = _write(tmp_path / "system.txt", bad)
        assert main(["evaluate", str(gold), str(system)]) == 1
        err = capsys.readouterr().err
        assert "[NEG-E114]" in err and f"{system}:" in err
    with pytest.raises(NegationFormatError, match=r"\[NEG-E114\].*:3: empty cue cell \(column 8\)"):
        list(iter_records(_write(tmp_path / "x.txt", GOLD.replace("\tnot\t_\t_", "\t\t_\t_"))))


def test_directory_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    gold = _write(tmp_path / "gold.txt", GOLD)
    assert main(["evaluate", str(tmp_path), str(gold)]) == 1  # GOLD|MODEL: checked when read
    err = capsys.readouterr().err
    assert "[NEG-E210]" in err and "is a directory" in err
    assert main(["evaluate", str(gold), str(tmp_path)]) == 2  # SYSTEM: a usage error
    assert "[NEG-E210]" in capsys.readouterr().err
    assert main(["evaluate", str(gold), str(tmp_path / "nope.txt")]) == 2
    assert "[NEG-E130]" in capsys.readouterr().err


def test_cr_only_line_endings(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cr = _write(tmp_path / "cr.txt", GOLD.replace("\n", "\r"))
    assert main(["evaluate", str(cr), str(cr)]) == 1
    err = capsys.readouterr().err
    assert "[NEG-E113]" in err and f"{cr}:1:" in err
    with pytest.raises(NegationFormatError, match=r"\[NEG-E113\].*:1: carriage return"):
        list(iter_text_blocks(cr))
    crlf = _write(tmp_path / "crlf.txt", GOLD.replace("\n", "\r\n"))
    assert [r.instances for r in iter_records(crlf)] == \
        [r.instances for r in iter_records(_write(tmp_path / "lf.txt", GOLD))]
    fe = _write(tmp_path / "cr.tsv", "A\t1\t1\t1\rB\t2\t2\t2\r")
    assert main(["faireval", str(fe), str(fe)]) == 1
    assert "[NEG-E113]" in capsys.readouterr().err


def test_crlf_split_across_read_chunks(tmp_path: Path) -> None:
    text = GOLD.replace("\n", "\r\n")
    path = _write(tmp_path / "crlf.txt", text)
    whole = list(iter_text_blocks(path))
    for size in (1, 2, 3, 7, 64):
        assert list(iter_text_blocks(path, chunk_size=size)) == whole
    assert [line for line, _ in whole] == [1, 7]


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(GOLD.encode("utf-8").replace(b"\tgo\t", b"\tg\xff\t", 1))
    with pytest.raises(NegationFormatError, match=r"\[NEG-E111\].*:4"):
        list(iter_text_blocks(path, chunk_size=16))


def test_faireval_unknown_label(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = _write(tmp_path / "t.tsv", "A\t1\t1\t1\n\nEMPTY\t999\t999\t999\n")
    system = _write(tmp_path / "s.tsv", "B\t1\t1\t1\n\nEMPTY\t999\t999\t999\n")
    assert main(["faireval", str(target), str(system), "--labels", "NOPE,A"]) == 1
    err = capsys.readouterr().err
    assert "[NEG-E213]" in err and "NOPE" in err and "A, B" in err
    assert main(["faireval", str(target), str(system), "--labels", "A", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["traditional"]["FN"] == 1


# --- bounded memory ---------------------------------------------------------------------

def _synthetic_starsem(path: Path, n_sentences: int, system: bool) -> None:
    """A synthetic *SEM file: 20 tokens per sentence, every 3rd sentence with a negation
    (the system's scope is one token shorter in every 2nd of those)."""
    with path.open("w", encoding="utf-8") as f:
        for n in range(n_sentences):
            neg = n % 3 == 0
            for k in range(20):
                form = "not" if neg and k == 3 else f"w{k}"
                cols = ["doc", str(n), str(k), form, form, "." if k == 19 else "NN", "*"]
                if neg:
                    cue = "not" if k == 3 else "_"
                    in_scope = 4 <= k < 12 - (system and n % 2 == 0)
                    cols += [cue, form if in_scope else "_", "_"]
                else:
                    cols.append("***")
                f.write("\t".join(cols) + "\n")
            f.write("\n")


def _max_rss_mb(args: List[str]) -> float:
    code = textwrap.dedent(f"""
        import resource, subprocess, sys
        res = subprocess.run([sys.executable, "-m", "spacy_negation", *{args!r}],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert res.returncode == 0, res.stderr
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    return float(res.stdout)


def test_evaluate_memory_is_bounded_by_a_sentence(tmp_path: Path) -> None:
    """``evaluate`` streams: on files of ~30 MB each its peak memory stays within a few MB
    of its peak on a 300-sentence file, and under 100 MB."""
    sizes = {"small": 300, "large": 60000}
    rss = {}
    for name, n in sizes.items():
        gold, system = tmp_path / f"{name}_gold.txt", tmp_path / f"{name}_system.txt"
        _synthetic_starsem(gold, n, system=False)
        _synthetic_starsem(system, n, system=True)
        rss[name] = _max_rss_mb(["evaluate", str(gold), str(system), "--json"])
    assert (tmp_path / "large_gold.txt").stat().st_size > 25 * 2 ** 20
    assert rss["large"] < 100
    assert rss["large"] - rss["small"] < 15, rss


def test_evaluate_runs_under_an_address_space_limit_smaller_than_its_input(tmp_path: Path) -> None:
    """All three families on a gold and a system file of 48 MB each, in a process whose
    address space is limited (RLIMIT_AS) to 64 MB: the files are streamed, never held."""
    limit = 64 * 2 ** 20
    for side in ("gold", "system"):
        base = tmp_path / f"base_{side}.txt"
        _synthetic_starsem(base, 3000, system=side == "system")
        data = base.read_bytes()
        with (tmp_path / f"{side}.txt").open("wb") as f:
            for _ in range(-(-48 * 2 ** 20 // len(data))):
                f.write(data)
    sizes = [(tmp_path / f"{side}.txt").stat().st_size for side in ("gold", "system")]
    assert min(sizes) >= 48 * 2 ** 20 and sum(sizes) > limit
    code = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
        try:
            bytearray({limit})
        except MemoryError:
            pass
        else:
            sys.exit("the limit is not in force")
        from spacy_negation.cli import main
        sys.argv = ["spacy_negation", "evaluate", {str(tmp_path / "gold.txt")!r},
                    {str(tmp_path / "system.txt")!r}, "--json"]
        sys.exit(main())
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout)
    n = (sizes[0] // len((tmp_path / "base_gold.txt").read_bytes())) * 3000
    assert out["starsem"]["sentences"]["total"] == n
    assert out["nis"]["counts"]["gold"] == n // 3 + (n % 3 > 0)
    assert out["faireval"]["fair"]["TP"] > 0


def test_docs_speed_figures_are_the_committed_measurement() -> None:
    """docs/compare.md quotes the x100 CPU seconds and peak memory of each family, reference
    tool and package, from results/metrics_speed.md (written by bench/bench_metrics.py)."""
    repo = Path(__file__).resolve().parents[2]
    rows = {}
    for line in (repo / "results" / "metrics_speed.md").read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) > 8 and cells[1] in ("reference", "package"):
            rows[(cells[0], cells[1])] = [c.split(" ")[0] for c in cells[2:]]
    readme = " ".join((repo / "docs" / "compare.md").read_text("utf-8").split())
    # columns: x1 wall, x1 CPU, x10 wall, x10 CPU, x100 wall, x100 CPU, peak MB x100, ...
    for family, name in (("*SEM 2012", "*SEM"), ("NIS", "NIS"), ("FairEval (span files)", "FairEval")):
        ref, pkg = rows[(family, "reference")], rows[(family, "package")]
        ratio = float(ref[5]) / float(pkg[5])
        assert (f"{name} {float(ref[5]):.1f} CPU-s in {ref[6]} MB against {float(pkg[5]):.1f} "
                f"in {pkg[6]} MB ({ratio:.1f}x)") in readme, family