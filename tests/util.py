"""Helpers shared by the tests: synthetic gold sentences, the tiny test configs,
comparable negation keys, an overfitting loop, coded-error checks and loading a script
of the project by its path. The fixtures are in ``conftest.py``."""
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example

import spacy_negation.ml.models  # noqa: F401  (registers the architectures)
import spacy_negation.pipeline  # noqa: F401  (registers the factories)
import spacy_negation.scoring.scorers  # noqa: F401  (registers the scorer)
from spacy_negation import get_negations, set_negations
from spacy_negation.errors import NegationFormatError
from spacy_negation.metrics.faireval import FSpan
from spacy_negation.negation import ROLES

REPO = Path(__file__).resolve().parents[1]
CONFIGS = REPO / "configs"
CNN_TINY = CONFIGS / "test" / "negation_cnn_tiny.cfg"
TRF_TINY = CONFIGS / "test" / "negation_trf_tiny.cfg"

#: A tiny tok2vec for component tests built in code.
SMALL_CNN = {
    "@architectures": "spacy.HashEmbedCNN.v2", "pretrained_vectors": None, "width": 32,
    "depth": 2, "embed_size": 1000, "window_size": 1, "maxout_pieces": 3,
    "subword_features": True,
}

PartSpec = Tuple[int, int, int]


def _whole(doc_words: Sequence[str], *idx: int) -> List[PartSpec]:
    return [(i, 0, len(doc_words[i])) for i in idx]


def gold_sentences() -> List[Tuple[List[str], List[Dict[str, List[PartSpec]]]]]:
    """Hand-made gold sentences covering the cue types: affixal (prefix, suffix, infix),
    multiword, discontinuous, cues at the first and the last token, two cues in one
    sentence, and a sentence without negation."""
    out = []
    w = ["He", "was", "unhappy", "."]
    out.append((w, [{"cue": [(2, 0, 2)], "scope": _whole(w, 0, 1) + [(2, 2, 7)], "event": [(2, 2, 7)]}]))
    w = ["It", "was", "by", "no", "means", "certain", "."]
    out.append((w, [{"cue": _whole(w, 2, 3, 4), "scope": _whole(w, 0, 1, 5), "event": _whole(w, 5)}]))
    w = ["Neither", "he", "nor", "she", "came", "."]
    out.append((w, [{"cue": _whole(w, 0, 2), "scope": _whole(w, 1, 3, 4), "event": _whole(w, 4)}]))
    w = ["No", "one", "came", "to", "the", "party", "."]
    out.append((w, [{"cue": _whole(w, 0), "scope": _whole(w, 1, 2, 3, 4, 5), "event": _whole(w, 2)}]))
    w = ["She", "paced", "restlessly", "."]
    out.append((w, [{"cue": [(2, 4, 8)], "scope": _whole(w, 0, 1) + [(2, 0, 4)], "event": [(2, 0, 4)]}]))
    w = ["A", "careless", "remark", "."]
    out.append((w, [{"cue": [(1, 4, 8)], "scope": [(1, 0, 4)], "event": []}]))
    w = ["I", "think", "not"]
    out.append((w, [{"cue": _whole(w, 2), "scope": _whole(w, 0, 1), "event": _whole(w, 1)}]))
    w = ["He", "was", "not", "unkind", "."]
    out.append((w, [
        {"cue": _whole(w, 2), "scope": _whole(w, 0, 1, 3), "event": _whole(w, 3)},
        {"cue": [(3, 0, 2)], "scope": _whole(w, 0, 1) + [(3, 2, 6)], "event": [(3, 2, 6)]},
    ]))
    w = ["The", "dog", "barked", "loudly", "."]
    out.append((w, []))
    return out


def make_reference(vocab, words: List[str], negations: List[Dict[str, List[PartSpec]]]) -> Doc:
    """A reference doc (one sentence) with gold negations."""
    spaces = [i + 1 < len(words) and words[i + 1] not in {".", ","} for i in range(len(words))]
    doc = Doc(vocab, words=words, spaces=spaces, sent_starts=[True] + [False] * (len(words) - 1))
    set_negations(doc, negations)
    return doc


def make_examples(nlp: Language) -> List[Example]:
    """The gold sentences as examples (predicted docs from the pipeline's tokenizer)."""
    examples = []
    for words, negations in gold_sentences():
        ref = make_reference(nlp.vocab, words, negations)
        examples.append(Example(nlp.make_doc(ref.text), ref))
    return examples


#: The gold sentences' texts (as the tiny pipeline learned them), some docs of two sentences.
TEXTS = [" ".join(w for w in words).replace(" .", ".") for words, _ in gold_sentences()]


def corpus_texts(n: int) -> List[str]:
    """n texts of the gold sentences, every third one a doc of two sentences."""
    return [TEXTS[i % len(TEXTS)] + ("" if i % 3 else " " + TEXTS[(i + 4) % len(TEXTS)])
            for i in range(n)]


def write_text(path: Path, texts: List[str]) -> Path:
    """A plain text corpus: one text a line."""
    path.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    return path


def write_jsonl(path: Path, rows: List[Dict[str, Any]]) -> Path:
    """A JSONL file of the records."""
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def read_jsonl(path: Path) -> List[Dict[str, Any]]:
    """The records of a JSONL file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def negation_key(doc: Doc) -> List[Tuple]:
    """Comparable negations of a doc (cue, scope, event parts), in cue order."""
    return [tuple(tuple((p.i, p.start, p.end) for p in neg.parts(role))
                  for role in ("cue", "scope", "event"))
            for neg in get_negations(doc)]


def cue_key(doc: Doc) -> List[Tuple]:
    return [tuple((p.i, p.start, p.end) for p in neg.cue) for neg in get_negations(doc)]


def load_test_nlp(config_path: Path, overrides: Optional[Dict] = None) -> Language:
    """A pipeline from a test config (not initialized)."""
    config = spacy.util.load_config(config_path, overrides=overrides or {}, interpolate=True)
    return spacy.util.load_model_from_config(config, auto_fill=True, validate=True)


def overfit(nlp: Language, examples: List[Example], max_iter: int, learn_rate: Optional[float] = None,
            check_every: int = 5, key: Optional[Callable[[Doc], Any]] = None) -> int:
    """Train until the pipeline's predictions on the example texts equal the gold (compared
    by ``key``, default :func:`negation_key`); returns the number of iterations (max_iter + 1
    if never)."""
    key = negation_key if key is None else key
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    if learn_rate is not None:
        optimizer.learn_rate = learn_rate
    rng = random.Random(0)
    texts = [eg.reference.text for eg in examples]
    gold = [key(eg.reference) for eg in examples]
    order = list(examples)
    for it in range(1, max_iter + 1):
        rng.shuffle(order)
        for batch in spacy.util.minibatch(order, 4):
            nlp.update(batch, sgd=optimizer)
        if it % check_every == 0 and [key(doc) for doc in nlp.pipe(texts)] == gold:
            return it
    return max_iter + 1


Key = Tuple[Tuple[Tuple[int, int, int, str], ...], ...]


def negation_keys(doc: Doc) -> List[Key]:
    """A doc's negations as comparable values: per role, (token index, start, end, text) of
    each part, instances in document order.

    doc (Doc): the doc.
    RETURNS (List[Key]): one key per instance.
    """
    return [
        tuple(tuple((p.i, p.start, p.end, p.text(doc)) for p in neg.parts(role)) for role in ROLES)
        for neg in get_negations(doc)
    ]


def fspan(label: str, begin: int, end: int, *tokens: int) -> FSpan:
    """A FairEval span: its label, first and last token (1-based) and its tokens (all from
    ``begin`` to ``end`` unless given)."""
    return FSpan(label, begin, end, frozenset(tokens or range(begin, end + 1)))


def assert_coded_error(read: Callable[[Path], object], path: Path, code: str, line: Optional[int]) -> None:
    """Reading a file raises the error with the code, naming the file and (if given) the
    line, as ``path:line:``.

    read (Callable[[Path], object]): reads the file (and consumes what it returns).
    path (Path): the file.
    code (str): the error code, e.g. 'E405'.
    line (Optional[int]): the line the error names, or None for a file-level error.
    """
    with pytest.raises(NegationFormatError, match=rf"\[NEG-{code}\]") as err:
        read(path)
    assert err.value.path == str(path) and err.value.line == line
    assert str(path) in str(err.value)
    if line is not None:
        assert f"{path}:{line}:" in str(err.value)


def annotate_quietly(*args: Any, **kwargs: Any) -> Any:
    """``spacy_negation.annotate.annotate`` without its progress bar (unless asked)."""
    from spacy_negation.annotate import annotate

    kwargs.setdefault("progress", False)
    return annotate(*args, **kwargs)


def cli_error(capsys: pytest.CaptureFixture, *args: object) -> str:
    """Run the package's command line with arguments on which it fails (exit code 1).

    capsys (pytest.CaptureFixture): pytest's capture fixture.
    args (object): the arguments (turned into strings).
    RETURNS (str): what it wrote to stderr.
    """
    from spacy_negation.cli import main

    assert main([str(arg) for arg in args]) == 1
    return capsys.readouterr().err


def evaluate_json(capsys: pytest.CaptureFixture, gold: Path, system: Path, out: Path) -> Path:
    """Write the metrics JSON of ``evaluate GOLD SYSTEM --json`` to a file.

    capsys (pytest.CaptureFixture): pytest's capture fixture.
    gold (Path): the gold *SEM file.
    system (Path): the system's *SEM file.
    out (Path): the file to write.
    RETURNS (Path): out.
    """
    from spacy_negation.cli import main

    assert main(["evaluate", str(gold), str(system), "--json"]) == 0
    out.write_text(capsys.readouterr().out, encoding="utf-8")
    return out


def assert_initialize_checks_get_examples(nlp: Language, name: str) -> None:
    """The component's ``initialize`` rejects a missing or empty ``get_examples`` (E930) and
    one that returns docs instead of examples (E978), as spaCy's components do.

    nlp (Language): the pipeline.
    name (str): the component's name.
    """
    pipe = nlp.get_pipe(name)
    with pytest.raises(TypeError, match=r"\[E930\]"):
        pipe.initialize(lambda: [], nlp=nlp)
    with pytest.raises(TypeError, match=r"\[E930\]"):
        pipe.initialize(None, nlp=nlp)
    with pytest.raises(TypeError, match=r"\[E978\]"):
        pipe.initialize(lambda: [nlp.make_doc("not an example")], nlp=nlp)


def load_module(path: Path, name: str) -> ModuleType:
    """A script of the project (``scripts/``, ``bench/``, ``data/``) imported from its path.

    path (Path): the file.
    name (str): the module's name.
    RETURNS (ModuleType): the executed module.
    """
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The modules that the spaCy-free parts (metrics, their command lines) must not import.
HEAVY = ("spacy", "thinc", "torch")


def modules_after(code: str, modules: Sequence[str] = HEAVY) -> List[str]:
    """The modules of ``modules`` imported after running ``code`` in a fresh interpreter.

    code (str): Python source to run.
    modules (Sequence[str]): the module names to look for.
    RETURNS (List[str]): those in ``sys.modules`` at the end.
    """
    probe = code + "\nimport sys\nprint(' '.join(m for m in %r if m in sys.modules))" % (tuple(modules),)
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return res.stdout.split()


class KindAccess:
    """The doc, token and span extensions and the storage of one kind of instance (negations
    or speculations), for the data-model tests that run for both kinds: the same specs,
    with the event dropped for a speculation (it has none).

    name (str): 'negation' or 'speculation'.
    """

    COVERED = {"negation": "negated", "speculation": "uncertain"}
    IS_CUE = {"negation": "is_neg_cue", "speculation": "is_spec_cue"}

    def __init__(self, name: str) -> None:
        from spacy_negation.negation import KINDS

        self.name = name
        self.kind = KINDS[name]
        self.key = self.kind.key
        self.roles = self.kind.roles
        self.cls = self.kind.cls
        self.mirror = self.kind.mirror

    def __repr__(self) -> str:
        return self.name

    def spec(self, spec: Dict[str, Any]) -> Dict[str, Any]:
        """A spec of a negation as one of this kind (without its event for a speculation)."""
        return {role: parts for role, parts in spec.items() if role in self.roles}

    def get(self, doc: Doc) -> List[Any]:
        """``doc._.negations`` or ``doc._.speculations``."""
        return getattr(doc._, self.key)

    def set(self, doc: Doc, specs: Any) -> None:
        """``doc._.negations = ...`` or ``doc._.speculations = ...`` (specs as given)."""
        setattr(doc._, self.key, specs)

    def put(self, doc: Doc, specs: Sequence[Dict[str, Any]]) -> None:
        """Set the instances of negation specs through the doc extension."""
        self.set(doc, [self.spec(s) for s in specs])

    def read(self, doc: Doc) -> List[Any]:
        """The instances read afresh (``get_negations`` / ``get_speculations``)."""
        from spacy_negation.negation import get_instances

        return get_instances(doc, self.kind)

    def store(self, doc: Doc, specs: Any, **kwargs: Any) -> None:
        """``set_negations`` / ``set_speculations`` with specs as given."""
        from spacy_negation.negation import set_instances

        set_instances(doc, self.kind, specs, **kwargs)

    def covered(self, obj: Any) -> bool:
        """``token._.negated`` / ``token._.uncertain`` (or the span's)."""
        return getattr(obj._, self.COVERED[self.name])

    def of(self, obj: Any) -> List[Any]:
        """``token._.negations`` / ``token._.speculations`` (or the span's)."""
        return getattr(obj._, self.key)

    def is_cue(self, token: Any) -> bool:
        """``token._.is_neg_cue`` / ``token._.is_spec_cue``."""
        return getattr(token._, self.IS_CUE[self.name])

    def texts(self, inst: Any) -> Tuple[str, ...]:
        """The text of each role of an instance."""
        return tuple(inst.text(role) for role in self.roles)

    def expect(self, rows: Sequence[Tuple[Any, ...]]) -> List[Tuple[Any, ...]]:
        """Rows of per-role values of negations (cue, scope, event) as this kind's."""
        return [tuple(row[:len(self.roles)]) for row in rows]


#: The kinds of instance of the data model, for ``pytest.mark.parametrize``.
KIND_NAMES = ("negation", "speculation")
