"""End-to-end speed and memory of the metric commands, against the reference tools.

Times what a user runs: whole processes (interpreter start-up, imports, reading, counting,
printing) of ``python -m spacy_negation evaluate --metrics FAMILY`` and
``python -m spacy_negation faireval``, and of the reference tools where their command is
given, on the CD-SCO test files (cardboard + circle) replicated x1, x10, x100. Runs are
interleaved (every command once per round, ``--runs`` rounds); the table shows medians of
the wall time, the ratio reference / package (above 1: the package is faster) and the peak
resident memory of each process (``wait4`` resource usage of the child).

The system file is made without a trained model, by perturbing the gold file
deterministically (see :func:`perturb`); the FairEval span files are the negation spans
(CUE / AFFIX / MWCUE / SCOPE) of gold and system, in folders ``target/`` and ``system/``
under the same file name (the FairEval tool pairs files by name, Ortmann 2022). Reference
tools are not part of the package: give each as a command template with ``{gold}`` and
``{system}`` placeholders (FairEval: ``{target}``, ``{system}`` and ``{config}``, a
FairEval config file the bench writes with the settings of our ``faireval`` defaults:
focus target, the paper's weights, NONE/EMPTY excluded), by option or environment
variable; a family whose reference is not given is timed for the package only. Before
timing, each reference's output is compared with the package's on the smallest input.

Run it without ``nice``: the timed processes inherit the bench's priority.

    python bench/bench_metrics.py --reps 1 10 100 --runs 3 \\
        --starsem-ref "perl eval.cd-sco.pl -g {gold} -s {system}" \\
        --nis-ref "python3.10 instance_based_eval/run_evaluation.py {gold} {system}" \\
        --faireval-ref "python3 FairEval.py --config {config}" \\
        --out results/metrics_speed.md
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from spacy_negation.corpora.starsem import Instance, Sentence
from spacy_negation.metrics.core import markdown_table
from spacy_negation.util import atomic_write_text

REPO = Path(__file__).resolve().parents[1]
ENV = {"starsem": "SPACY_NEGATION_REF_STARSEM", "nis": "SPACY_NEGATION_REF_NIS",
       "faireval": "SPACY_NEGATION_REF_FAIREVAL"}
TITLES = {"starsem": "*SEM 2012", "nis": "NIS", "faireval": "FairEval (span files)",
          "all": "all three families"}


def perturb(sentences: List[Sentence]) -> List[Sentence]:
    """A deterministic 'system output': every 7th instance dropped, every 5th scope
    without its first token, every 3rd affixal cue predicted as the whole word, and a
    spurious instance on the first token of every 13th sentence without negation."""
    out: List[Sentence] = []
    k = 0
    for n, sent in enumerate(sentences):
        insts: List[Instance] = []
        for inst in sent.instances:
            k += 1
            if k % 7 == 0:
                continue
            cue = list(inst.cue)
            if k % 3 == 0:
                cue = [(p, sent.rows[p].form) for p, _ in cue]
            scope = list(inst.scope[1:] if k % 5 == 0 else inst.scope)
            insts.append(Instance(cue=cue, scope=scope, event=list(inst.event)))
        if not sent.instances and n % 13 == 0:
            insts.append(Instance(cue=[(0, sent.rows[0].form)], scope=[], event=[]))
        out.append(Sentence(rows=sent.rows, instances=insts, line=sent.line))
    return out


def replicate(src: Path, dst: Path, reps: int) -> None:
    """Write ``reps`` copies of a file one after the other, each ending with a blank line
    (so that copies stay separate sentences, and the perl scorer reads every line)."""
    data = src.read_bytes().rstrip(b"\n") + b"\n\n"
    with dst.open("wb") as f:
        for _ in range(reps):
            f.write(data)


def run_once(cmd: Sequence[str], cwd: Optional[Path] = None) -> Tuple[float, float, float]:
    """Run a command to completion (output discarded): wall seconds, CPU seconds (user +
    system) and peak RSS (MB) of the process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(list(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def input_files(work: Path, reps: Sequence[int]) -> Dict[int, Dict[str, Path]]:
    """The paths of the gold and system *SEM files and FairEval span files per replication."""
    names = {"gold": "gold_x{}.txt", "system": "system_x{}.txt",
             "target_spans": "spans_x{}/target/spans.tsv", "system_spans": "spans_x{}/system/spans.tsv",
             "config": "spans_x{}/faireval.config"}
    return {r: {key: work / name.format(r) for key, name in names.items()} for r in reps}


def faireval_config(files: Dict[str, Path]) -> str:
    """The FairEval tool's config for the span files of one replication, with the settings
    of ``python -m spacy_negation faireval`` by default (Ortmann 2022's weights)."""
    from spacy_negation.metrics.faireval import PAPER_WEIGHTS_FORMULA

    return (f"target_in = {files['target_spans']}\nsystem_in = {files['system_spans']}\n"
            "exclude = \nfocus = target\nignore_punct = False\nlabels = all\n"
            f"eval_method = all\nweights = {PAPER_WEIGHTS_FORMULA}\n")


def build_inputs(shared: Path, work: Path, reps: Sequence[int]) -> None:
    """Write the inputs (:func:`input_files`). Run in a child process of the timing
    driver: the driver stays small, since a child's peak memory (``ru_maxrss``) includes
    the memory of the parent it was started from."""
    from spacy_negation.corpora.starsem_docs import CDSCO_FILES
    from spacy_negation.metrics.faireval import negation_spans
    from spacy_negation.metrics.faireval.files import format_span_sentences
    from spacy_negation.corpora.starsem import read_starsem, write_starsem

    os.nice(15)  # building is not timed
    cdsco = shared / "corpora" / "cd-sco"
    gold: List[Sentence] = []
    for split in ("cardboard", "circle"):
        gold.extend(read_starsem(cdsco / CDSCO_FILES[split]))
    system = perturb(gold)
    files = input_files(work, [1, *reps])
    base = files[1]
    for r in files:
        files[r]["target_spans"].parent.mkdir(parents=True, exist_ok=True)
        files[r]["system_spans"].parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(files[r]["config"], faireval_config(files[r]))
    write_starsem(gold, base["gold"])
    write_starsem(system, base["system"])
    atomic_write_text(base["target_spans"], format_span_sentences(negation_spans(s) for s in gold))
    atomic_write_text(base["system_spans"], format_span_sentences(negation_spans(s) for s in system))
    data = [k for k in base if k != "config"]
    for r in reps:
        for key in data:
            replicate(base[key], files[r][key], r)
    for key in data:
        replicate(base[key], base[key], 1)
    print(f"CD-SCO test (cardboard + circle): {len(gold)} sentences, "
          f"{sum(len(s.instances) for s in gold)} gold and {sum(len(s.instances) for s in system)} "
          "system instances", file=sys.stderr)


def commands(files: Dict[str, Path], refs: Dict[str, Optional[str]], python: str
             ) -> List[Tuple[str, str, List[str]]]:
    """(family, tool, argv) of every timed command for one replication."""
    ours = [python, "-m", "spacy_negation"]
    g, s = str(files["gold"]), str(files["system"])
    out = [
        ("starsem", "package", ours + ["evaluate", g, s, "--metrics", "starsem", "--json"]),
        ("nis", "package", ours + ["evaluate", g, s, "--metrics", "nis", "--json"]),
        ("faireval", "package", ours + ["faireval", str(files["target_spans"]),
                                        str(files["system_spans"]), "--json"]),
        ("all", "package", ours + ["evaluate", g, s, "--json"]),
    ]
    for family, template in refs.items():
        if not template:
            continue
        if family == "faireval":
            filled = template.format(target=files["target_spans"], system=files["system_spans"],
                                     config=files["config"])
        else:
            filled = template.format(gold=g, system=s)
        out.append((family, "reference", shlex.split(filled)))
    return out


def _run(argv: Sequence[str]) -> str:
    return subprocess.run(list(argv), capture_output=True, text=True, check=True).stdout


def check_agreement(files: Dict[str, Path], refs: Dict[str, Optional[str]], python: str
                    ) -> Dict[str, bool]:
    """Per family with a reference: whether the package's output equals the reference's
    on the same files (*SEM: ``evaluate --starsem-compat`` against the perl table; NIS:
    :func:`~spacy_negation.metrics.nis.format_nis_cli` against its printout; FairEval: the
    overall P/R/F of the three methods against its "Comparison" rows)."""
    g, s = str(files["gold"]), str(files["system"])
    out: Dict[str, bool] = {}
    if refs.get("starsem"):
        ref = _run(shlex.split(refs["starsem"].format(gold=g, system=s)))  # type: ignore[union-attr]
        ours = _run([python, "-m", "spacy_negation", "evaluate", g, s, "--metrics", "starsem",
                     "--starsem-compat"])
        out["starsem"] = ours.split("\n", 1)[1] == ref
    if refs.get("nis"):
        ref = _run(shlex.split(refs["nis"].format(gold=g, system=s)))  # type: ignore[union-attr]
        ours = _run([python, "-c", "import sys\n"
                     "from spacy_negation.metrics.evaluate import evaluate_files\n"
                     "from spacy_negation.metrics.nis import format_nis_cli, nis_scores\n"
                     "print(format_nis_cli(nis_scores(evaluate_files(sys.argv[1], sys.argv[2], "
                     "('nis',))['nis'])), end='')", g, s])
        out["nis"] = ours == ref
    if refs.get("faireval"):
        t, y = str(files["target_spans"]), str(files["system_spans"])
        ref = _run(shlex.split(refs["faireval"].format(target=t, system=y,  # type: ignore[union-attr]
                                                      config=files["config"])))
        rows = ref.split("### Comparison:\n", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
        res = json.loads(_run([python, "-m", "spacy_negation", "faireval", t, y, "--json"]))
        ours_rows = ["\t".join([m.title()] + ["{:04.2f}".format(res[m][k] * 100) for k in "prf"])
                     for m in ("traditional", "fair", "weighted")]
        out["faireval"] = rows == ours_rows
    return out


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--runs", type=int, default=3, help="interleaved rounds (median)")
    parser.add_argument("--shared", type=Path, default=REPO / ".." / "shared")
    parser.add_argument("--python", default=sys.executable, help="interpreter of the package")
    for family in ("starsem", "nis", "faireval"):
        parser.add_argument(f"--{family}-ref", default=os.environ.get(ENV[family]),
                            help=f"reference command template (or ${ENV[family]})")
    parser.add_argument("--out", type=Path, default=None, help="write the table (markdown)")
    parser.add_argument("--build-only", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.build_only is not None:
        build_inputs(args.shared, args.build_only, args.reps)
        return 0
    refs = {"starsem": args.starsem_ref, "nis": args.nis_ref, "faireval": args.faireval_ref}
    times: Dict[Tuple[str, str, str, int], List[float]] = {}
    rss: Dict[Tuple[str, str, int], float] = {}
    with tempfile.TemporaryDirectory(prefix="bench_metrics_") as tmp:
        subprocess.run([args.python, __file__, "--build-only", tmp, "--shared", str(args.shared),
                        "--reps", *map(str, args.reps)], check=True)
        inputs = input_files(Path(tmp), args.reps)
        load_start = os.getloadavg()[0]
        agree = check_agreement(inputs[min(args.reps)], refs, args.python)
        for r in args.reps:
            cmds = commands(inputs[r], refs, args.python)
            for round_no in range(args.runs):
                for family, tool, cmd in cmds:
                    wall, cpu, peak = run_once(cmd)
                    times.setdefault(("wall", family, tool, r), []).append(wall)
                    times.setdefault(("cpu", family, tool, r), []).append(cpu)
                    rss[(family, tool, r)] = max(rss.get((family, tool, r), 0.0), peak)
                    print(f"x{r} round {round_no + 1} {family:<8} {tool:<9} {wall:7.3f} s "
                          f"{cpu:7.3f} CPU s {peak:7.1f} MB", file=sys.stderr)
    table = format_table(times, rss, args.reps, args.runs, refs)
    for family, same in agree.items():
        table += (f"- On x{min(args.reps)} the {TITLES[family]} output of the package "
                  f"{'equals' if same else 'DIFFERS FROM'} the reference's.\n")
    command = " ".join(shlex.quote(a) for a in ["python", "bench/bench_metrics.py", *(argv or sys.argv[1:])])
    load = os.getloadavg()[0]
    # The bench runs one timed process at a time (load about 1); more means other jobs ran.
    shared = ": other jobs shared the machine" if max(load_start, load) > 1.5 else ""
    table = (f"# Metric commands: speed and memory\n\nMeasured with `{command}` on {os.cpu_count()} "
             f"CPUs (1-minute load average {load_start:.1f} at the start and {load:.1f} at the end "
             f"of the run{shared}).\n\n" + table)
    print(table)
    if args.out is not None:
        atomic_write_text(args.out, table)
    return 0


def format_table(times: Dict[Tuple[str, str, str, int], List[float]],
                 rss: Dict[Tuple[str, str, int], float], reps: Sequence[int], runs: int,
                 refs: Dict[str, Optional[str]]) -> str:
    """The markdown table: per replication the median wall and CPU seconds (package rows:
    with the ratio reference / package), the peak memory at the largest replication and
    the CPU seconds each extra copy of the input costs."""
    top = max(reps)
    head = ["family", "tool"]
    for r in reps:
        head += [f"x{r} wall s", f"x{r} CPU s"]
    head.append(f"peak MB x{top}")
    if len(reps) > 1:
        head.append(f"CPU s per extra copy (x{sorted(reps)[-2]}..x{top})")
    rows = []
    med = {k: statistics.median(v) for k, v in times.items()}
    for family in ("starsem", "nis", "faireval", "all"):
        for tool in ("reference", "package"):
            if ("wall", family, tool, top) not in med:
                continue
            row = [TITLES[family], tool]
            for r in reps:
                for kind in ("wall", "cpu"):
                    value = med[(kind, family, tool, r)]
                    cell = f"{value:.3f}"
                    ref = med.get((kind, family, "reference", r))
                    if tool == "package" and ref is not None:
                        cell += f" ({ref / value:.1f}x)"
                    row.append(cell)
            row.append(f"{rss[(family, tool, top)]:.0f}")
            if len(reps) > 1:
                lo = sorted(reps)[-2]
                extra = (med[("cpu", family, tool, top)] - med[("cpu", family, tool, lo)]) / (top - lo)
                row.append(f"{extra:.4f}")
            rows.append(row)
    notes = [f"Medians of {runs} interleaved runs of whole processes (start-up included); "
             "(Nx) = reference / package, above 1 the package is faster. CPU s = user + "
             "system time of the process; peak MB = its maximum resident set size."]
    for family, template in refs.items():
        notes.append(f"{TITLES[family]} reference: " + (f"`{template}`" if template else
                                                        "not available here (package only)"))
    return "\n".join(markdown_table(head, rows)) + "\n\n" + "\n".join(f"- {n}" for n in notes) + "\n"

if __name__ == "__main__":
    sys.exit(main())
