"""The argument types every command shares (spacy_negation.cli._args): each count in its
range, inputs that are regular files (a FIFO or a device is refused before it is opened,
and said to be one), outputs that can be written (no /dev/full, /dev/null, FIFO or
directory): usage errors (exit code 2) with the coded message, no traceback, no hang."""
import os
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List

import pytest

from spacy_negation.cli import main
from spacy_negation.limits import MAX_SEED, MAX_THREADS
from spacy_negation.probe.run import n_pairs

from starsem_cases import GOLD

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
needs_devices = pytest.mark.skipif(not Path("/dev/full").exists() or not Path("/dev/zero").exists(),
                                   reason="no /dev/full or /dev/zero on this platform")


def run_guarded(argv: List[str], fifo: Path, timeout: float = 60.0) -> int:
    """``main(argv)`` in a thread: if it is still running after ``timeout`` (it opened the
    FIFO and waits for a writer or reader), the FIFO's other end is opened to release it
    and the test fails, instead of hanging."""
    result: Dict[str, int] = {}
    thread = threading.Thread(target=lambda: result.update(code=main(argv)), daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        for flags in (os.O_RDONLY | os.O_NONBLOCK, os.O_WRONLY | os.O_NONBLOCK):
            try:
                os.close(os.open(fifo, flags))
            except OSError:
                pass
        thread.join(10)
        pytest.fail(f"{argv[0]} opened the FIFO {fifo} and waited on it")
    return result["code"]


@pytest.fixture
def paths(tmp_path: Path) -> Dict[str, Path]:
    """A *SEM file, a JSON file, a .spacy name, a FIFO and a folder."""
    sem = tmp_path / "gold.txt"
    sem.write_text(GOLD, encoding="utf-8")
    data = tmp_path / "run.json"
    data.write_text("{}", encoding="utf-8")
    out = {"SEM": sem, "JSON": data, "DIR": tmp_path / "folder", "MISSING": tmp_path / "missing.txt",
           "OUT": tmp_path / "out.txt"}
    out["DIR"].mkdir()
    if hasattr(os, "mkfifo"):
        out["FIFO"] = tmp_path / "pipe"
        os.mkfifo(out["FIFO"])
    return out


def _argv(template: List[str], paths: Dict[str, Path], **values: str) -> List[str]:
    return [values[a] if a in values else str(paths[a]) if a in paths else a for a in template]


def usage_error(capsys: pytest.CaptureFixture, argv: List[str]) -> str:
    """Run a command line that must stop with a usage error; its stderr."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "usage:" in err
    return err


# --- counts -------------------------------------------------------------------------------
#: (command line, option, a value below and one above the range). SEM, JSON, OUT: files.
COUNTS = [
    (["convert", "SEM", "OUT", "--n-sents", "V"], "--n-sents", "-1", "1000001"),
    (["compare", "SEM", "SEM", "SEM", "--samples", "V"], "--samples", "0", "1000001"),
    (["compare", "SEM", "SEM", "SEM", "--ar-samples", "V"], "--ar-samples", "0", "1000001"),
    (["compare", "SEM", "SEM", "SEM", "--seed", "V"], "--seed", "-1", str(MAX_SEED + 1)),
    (["seeds", "JSON", "JSON", "--samples", "V"], "--samples", "0", "1000001"),
    (["seeds", "JSON", "JSON", "--seed", "V"], "--seed", "-1", str(MAX_SEED + 1)),
    (["vote", "SEM", "SEM", "-o", "OUT", "--min-votes", "V"], "--min-votes", "0", "10001"),
    (["evaluate", "model", "SEM", "--batch-size", "V"], "--batch-size", "0", "10001"),
    (["probe", "model", "--batch-size", "V"], "--batch-size", "0", "10001"),
    (["probe", "model", "--sample", "V"], "--sample", "0", "1000000000"),
    (["probe", "model", "--seed", "V"], "--seed", "-1", str(MAX_SEED + 1)),
    (["probe", "model", "--ranks", "0", "V"], "--ranks", "-1", "1000001"),
    (["challenge", "model", "--sample", "V"], "--sample", "0", "1000000000"),
    (["challenge", "model", "--seed", "V"], "--seed", "-1", str(MAX_SEED + 1)),
    (["annotate", "SEM", "OUT", "--model", "m", "--threads", "V"], "--threads", "0", "100000"),
    (["annotate", "SEM", "OUT", "--model", "m", "--n-process", "V"], "--n-process", "0", "257"),
    (["annotate", "SEM", "OUT", "--model", "m", "--workers", "V"], "--workers", "0", "4097"),
    (["annotate", "SEM", "OUT", "--model", "m", "--shard-size", "V"], "--shard-size", "0", "1000001"),
    (["annotate", "SEM", "OUT", "--model", "m", "--batch-size", "V"], "--batch-size", "0", "10001"),
    (["annotate", "SEM", "OUT", "--model", "m", "--max-retries", "V"], "--max-retries", "-1", "101"),
]


@pytest.mark.parametrize("template,option,low,high", COUNTS, ids=[f"{c[0][0]} {c[1]}" for c in COUNTS])
def test_every_count_option_is_bounded(paths, capsys, template, option, low, high):
    for value in (low, high, "two", "1.5", "9" * 5000):
        err = usage_error(capsys, _argv(template, paths, V=value))
        assert f"[NEG-E971] {option} must be a whole number from " in err
        shown = [f"got {value}.", f"got {value!r}."] if len(value) < 40 else ["got '99999999999999999999...99999'."]
        assert any(s in err for s in shown), err
    assert not paths["OUT"].exists()


def test_the_bounds_are_given_in_the_help(capsys):
    assert main(["annotate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"at most {MAX_THREADS}" in text and "at most 256" in text
    assert main(["challenge", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"at most {max(n_pairs('m'), n_pairs('f'))}: all pairs" in text


def test_threads_of_the_environment_are_bounded_too(monkeypatch):
    from spacy_negation.annotate.threads import resolve_threads

    monkeypatch.setenv("OMP_NUM_THREADS", "100000")
    with pytest.raises(ValueError, match=r"\[NEG-E950\] OMP_NUM_THREADS must be a whole number from 1 to 256"):
        resolve_threads(None)


# --- inputs -------------------------------------------------------------------------------
#: Command lines with an input argument IN (SEM, JSON: valid files; OUT: an output path).
INPUTS = [
    ["convert", "IN", "OUT"],
    ["export", "IN", "OUT"],
    ["evaluate", "SEM", "IN"],
    ["faireval", "IN", "SEM"],
    ["faireval", "SEM", "IN"],
    ["compare", "IN", "SEM", "SEM"],
    ["compare", "SEM", "SEM", "IN"],
    ["seeds", "JSON", "IN"],
    ["seeds", "JSON", "JSON", "--gold", "IN", "--system", "SEM", "SEM"],
    ["seeds", "JSON", "JSON", "--gold", "SEM", "--system", "SEM", "IN"],
    ["vote", "SEM", "IN", "-o", "OUT"],
    ["annotate", "IN", "OUT", "--model", "m"],
]
INPUT_IDS = [" ".join(a for a in argv if a not in ("SEM", "JSON", "OUT")) for argv in INPUTS]


@needs_fifo
@pytest.mark.parametrize("template", INPUTS, ids=INPUT_IDS)
def test_a_fifo_input_is_refused_before_it_is_opened(paths, capsys, template):
    start = time.perf_counter()
    assert run_guarded(_argv(template, paths, IN=str(paths["FIFO"])), paths["FIFO"]) == 2
    err = capsys.readouterr().err
    assert f"[NEG-E970] {paths['FIFO']} is a FIFO, not a regular file" in err and "not found" not in err
    assert time.perf_counter() - start < 30 and not paths["OUT"].exists()


@needs_fifo
def test_a_fifo_as_the_gold_file_of_evaluate_is_refused_when_read(paths, capsys):
    """GOLD|MODEL may name a model, so it is checked as a file only when read (exit code 1)."""
    assert run_guarded(["evaluate", str(paths["FIFO"]), str(paths["SEM"])], paths["FIFO"]) == 1
    assert f"[NEG-E970] {paths['FIFO']} is a FIFO" in capsys.readouterr().err


@needs_devices
@pytest.mark.parametrize("template", INPUTS, ids=INPUT_IDS)
def test_dev_zero_as_input_is_refused_without_reading_it(paths, capsys, template):
    err = usage_error(capsys, _argv(template, paths, IN="/dev/zero"))
    assert "[NEG-E970] /dev/zero is a character device, not a regular file" in err
    assert "not found" not in err and not paths["OUT"].exists()


@pytest.mark.parametrize("template", [t for t in INPUTS if t[0] not in ("convert", "faireval")],
                         ids=[i for i, t in zip(INPUT_IDS, INPUTS) if t[0] not in ("convert", "faireval")])
def test_a_folder_or_a_missing_input_is_said_to_be_one(paths, capsys, template):
    err = usage_error(capsys, _argv(template, paths, IN=str(paths["DIR"])))
    assert f"[NEG-E210] {paths['DIR']} is a directory; expected a file" in err
    err = usage_error(capsys, _argv(template, paths, IN=str(paths["MISSING"])))
    assert f"[NEG-E130] Input file not found: {paths['MISSING']}" in err


def test_a_dangling_symlink_as_input_is_not_found(paths, capsys, tmp_path):
    (tmp_path / "link.txt").symlink_to(tmp_path / "nowhere.txt")
    err = usage_error(capsys, ["evaluate", str(paths["SEM"]), str(tmp_path / "link.txt")])
    assert "[NEG-E130]" in err


def test_an_input_below_a_file_cannot_be_read(paths, capsys):
    below = paths["SEM"] / "x.txt"
    err = usage_error(capsys, ["evaluate", str(paths["SEM"]), str(below)])
    assert f"[NEG-E112] {below}: cannot read the file: Not a directory" in err


@needs_fifo
def test_the_readers_refuse_a_fifo_from_python(paths):
    """The functions behind the commands check their inputs as the command line does."""
    from spacy_negation.corpora.starsem_docs import read_starsem_docs
    from spacy_negation.errors import NegationFormatError
    from spacy_negation.metrics.starsem.io import iter_records

    for read in (read_starsem_docs, lambda p: list(iter_records(p))):
        with pytest.raises(NegationFormatError, match=r"\[NEG-E970\] .*pipe is a FIFO"):
            read(paths["FIFO"])


# --- outputs ------------------------------------------------------------------------------
#: Command lines with an output path OUT (SEM, JSON: valid input files).
OUTPUTS = [
    ["convert", "SEM", "OUT"],
    ["export", "SEM", "OUT"],
    ["evaluate", "model", "SEM", "--system-out", "OUT"],
    ["evaluate", "model", "SEM", "--output", "OUT"],
    ["vote", "SEM", "SEM", "-o", "OUT"],
    ["probe", "model", "--output", "OUT"],
    ["challenge", "model", "--output", "OUT"],
    ["challenge", "model", "--gold", "OUT"],
    ["annotate", "SEM", "OUT", "--model", "m"],
]
OUTPUT_IDS = [" ".join(a for a in argv if a not in ("SEM", "OUT")) for argv in OUTPUTS]


@needs_devices
@pytest.mark.parametrize("device", ["/dev/full", "/dev/null"])
@pytest.mark.parametrize("template", OUTPUTS, ids=OUTPUT_IDS)
def test_a_device_as_output_is_refused_at_once(paths, capsys, template, device):
    """/dev/full (challenge --output /dev/full read zeros into memory) and /dev/null: files are
    written by renaming a temporary file over the path, which would replace the device."""
    start = time.perf_counter()
    err = usage_error(capsys, _argv(template, paths, OUT=device))
    assert f"[NEG-E124] Cannot write {device}: it exists and is not a regular file (a character device)" in err
    assert time.perf_counter() - start < 30


@needs_fifo
@pytest.mark.parametrize("template", OUTPUTS, ids=OUTPUT_IDS)
def test_a_fifo_or_folder_as_output_is_refused(paths, capsys, template):
    assert run_guarded(_argv(template, paths, OUT=str(paths["FIFO"])), paths["FIFO"]) == 2
    err = capsys.readouterr().err
    assert f"[NEG-E124] Cannot write {paths['FIFO']}: it exists and is not a regular file (a FIFO)" in err
    err = usage_error(capsys, _argv(template, paths, OUT=str(paths["DIR"])))
    assert f"[NEG-E123] Cannot write {paths['DIR']}: it is a directory" in err


@needs_fifo
@pytest.mark.parametrize("command,suffix", [("challenge", ".md"), ("probe", ".md"), ("probe", ".png")])
def test_a_file_written_beside_the_output_is_checked_before_the_run(tmp_path, capsys, command, suffix):
    """The Markdown (and PNG) beside the results JSON are checked before any model is loaded."""
    os.mkfifo(tmp_path / f"results{suffix}")
    argv = [command, str(tmp_path / "no-model"), "--output", str(tmp_path / "results.json")]
    assert run_guarded(argv, tmp_path / f"results{suffix}") == 1
    err = capsys.readouterr().err
    assert f"[NEG-E124] Cannot write {tmp_path / f'results{suffix}'}" in err and "Traceback" not in err
    assert not (tmp_path / "results.json").exists()


def test_evaluate_model_outputs_are_not_the_corpus(tmp_path, capsys):
    corpus = tmp_path / "dev.spacy"
    corpus.write_bytes(b"")
    assert main(["evaluate", "no-model", str(corpus), "--output", str(corpus)]) == 1
    assert "[NEG-E125]" in capsys.readouterr().err and corpus.read_bytes() == b""
