"""Committed document-level train/dev/test splits of the corpora without an official one
(BioScope abstracts and clinical, SFU Review; NUBes by file, see
:func:`spacy_negation.corpora.nubes.make_nubes_split`), shipped as package data, and how they
were made.
"""
import json
import random
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors, NegationFormatError
from ..util import blank_nlp
from .docs import doc_ids, document_ids
from .registry import get_reader

#: The committed split files (document ids per split), shipped inside the package.
SPLITS_DIR = Path(__file__).resolve().parent / "data" / "splits"
#: Split name -> (split file stem, format of the corpus the ids refer to).
SPLIT_CORPORA: Dict[str, Tuple[str, str]] = {
    "bioscope_abstracts": ("bioscope_abstracts", "bioscope"),
    "bioscope_clinical": ("bioscope_clinical", "bioscope_clinical"),
    "sfu": ("sfu", "sfu"),
    "nubes": ("nubes", "nubes"),
}
SPLIT_NAMES = ("train", "dev", "test")


def select_documents(docs: Iterable[Doc], ids: Iterable[str]) -> List[Doc]:
    """The docs belonging to the given document ids (readers never put two documents in
    one doc), in corpus order.

    docs (Iterable[Doc]): the docs.
    ids (Iterable[str]): the document ids to keep.
    RETURNS (List[Doc]): the docs.
    """
    wanted: Set[str] = set(ids)
    return [doc for doc in docs if doc_ids(doc) and doc_ids(doc)[0] in wanted]


def split_file(name: str, splits_dir: Optional[Union[str, Path]] = None) -> Path:
    """The JSON file holding the document ids of a corpus's splits.

    name (str): a key of :data:`SPLIT_CORPORA`, e.g. 'bioscope_abstracts'.
    splits_dir (Optional[Union[str, Path]]): the folder; default: the split files shipped
        with the package (:data:`SPLITS_DIR`).
    RETURNS (Path): the file.
    """
    if name not in SPLIT_CORPORA:
        raise ValueError(Errors.E131.format(what="corpus split", name=name, available=", ".join(sorted(SPLIT_CORPORA))))
    folder = Path(splits_dir) if splits_dir is not None else SPLITS_DIR
    return folder / f"{SPLIT_CORPORA[name][0]}.json"


def read_split_ids(name: str, split: str, splits_dir: Optional[Union[str, Path]] = None) -> List[str]:
    """The document ids of one split.

    name (str): a key of :data:`SPLIT_CORPORA`.
    split (str): 'train', 'dev' or 'test'.
    splits_dir (Optional[Union[str, Path]]): the folder of the split files.
    RETURNS (List[str]): the ids, in corpus order.
    """
    if split not in SPLIT_NAMES:
        raise ValueError(Errors.E131.format(what="split", name=split, available=", ".join(SPLIT_NAMES)))
    path = split_file(name, splits_dir)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise NegationFormatError(Errors.E432.format(path=path, reason=err), path) from err
    ids = data.get("splits", {}).get(split) if isinstance(data, dict) else None
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
        raise NegationFormatError(Errors.E432.format(path=path, reason=f"no id list for split {split!r}"), path)
    return ids


def load_split(name: str, split: str, corpus_path: Union[str, Path], vocab: Optional[Vocab] = None,
               n_sents: int = 10, splits_dir: Optional[Union[str, Path]] = None,
               on_error: str = "raise") -> List[Doc]:
    """Read the docs of one split of a corpus with a committed document-level split.

    name (str): 'bioscope_abstracts' (ids refer to abstracts.xml), 'bioscope_clinical' (the
        bioscope-clinical folder; the distributed files need ``on_error="skip"``: one sentence
        cannot be restored), 'sfu' or 'nubes' (the NUBes folder; ids are file names).
    split (str): 'train', 'dev' or 'test'.
    corpus_path (Union[str, Path]): the corpus file or folder (e.g. bioscope/abstracts.xml,
        sfu-review-en/SFU_Review_Corpus_Negation_Speculation).
    vocab (Optional[Vocab]): the vocab; a new English one if None.
    n_sents (int): sentences per doc (0: whole documents).
    splits_dir (Optional[Union[str, Path]]): the folder of the split files.
    on_error (str): the reader's 'raise' (default) or 'skip' (skip bad sentences with W402).
    RETURNS (List[Doc]): the docs of the split's documents, in corpus order.
    RAISES (NegationFormatError): a split id is not in the corpus.
    """
    read_split_ids(name, split, splits_dir)  # fail early on a bad name, split or file
    if vocab is None:
        vocab = blank_nlp("en").vocab
    reader = get_reader(SPLIT_CORPORA[name][1])
    docs = reader(Path(corpus_path), vocab, n_sents, on_error=on_error)
    return select_split(docs, name, split, corpus_path, splits_dir)


def select_split(docs: Iterable[Doc], name: str, split: str, corpus_path: Union[str, Path],
                 splits_dir: Optional[Union[str, Path]] = None) -> List[Doc]:
    """The docs of one committed split, checking that every split document is there.

    docs (Iterable[Doc]): the docs of the whole corpus.
    name (str): a key of :data:`SPLIT_CORPORA`.
    split (str): 'train', 'dev' or 'test'.
    corpus_path (Union[str, Path]): the corpus the docs were read from (for the error).
    splits_dir (Optional[Union[str, Path]]): the folder of the split files.
    RETURNS (List[Doc]): the docs of the split's documents, in corpus order.
    RAISES (NegationFormatError): a split id is not in the corpus.
    """
    ids = read_split_ids(name, split, splits_dir)
    docs = list(docs)
    found = set(document_ids(docs))
    missing = [d for d in ids if d not in found]
    if missing:
        raise NegationFormatError(
            Errors.E433.format(path=corpus_path, n=len(missing), name=name, split=split,
                               examples=", ".join(missing[:5])), corpus_path)
    return select_documents(docs, ids)


def make_document_split(ids: Sequence[str], seed: int, fractions: Tuple[float, float, float] = (0.8, 0.1, 0.1),
                        strata: Optional[Dict[str, str]] = None) -> Dict[str, List[str]]:
    """A seeded document-level train/dev/test split.

    Per stratum (in sorted order; one stratum without ``strata``) the ids are shuffled with
    one ``random.Random(seed)`` generator; the first ``round(n * fractions[0])`` go to
    train, the next ``round(n * fractions[1])`` to dev, the rest to test. Each split lists
    its ids in the given (corpus) order.

    ids (Sequence[str]): the document ids in corpus order (distinct).
    seed (int): the random seed.
    fractions (Tuple[float, float, float]): train, dev, test fractions.
    strata (Optional[Dict[str, str]]): id -> stratum (e.g. the review domain).
    RETURNS (Dict[str, List[str]]): 'train', 'dev', 'test' -> ids.
    """
    if len(set(ids)) != len(ids):
        raise ValueError(Errors.E434.format(n=len(ids) - len(set(ids))))
    rng = random.Random(seed)
    groups: Dict[str, List[str]] = {}
    for doc_id in ids:
        groups.setdefault(strata[doc_id] if strata else "", []).append(doc_id)
    chosen: Dict[str, str] = {}
    for key in sorted(groups):
        members = list(groups[key])
        rng.shuffle(members)
        n_train = round(len(members) * fractions[0])
        n_dev = round(len(members) * fractions[1])
        for k, doc_id in enumerate(members):
            chosen[doc_id] = "train" if k < n_train else "dev" if k < n_train + n_dev else "test"
    return {name: [d for d in ids if chosen[d] == name] for name in SPLIT_NAMES}
