"""Outputs of ``annotate``: JSONL, Parquet or a spaCy DocBin, one record per document.

A record holds the document's id and its negations; each negation has its cue, scope and
event as lists of character ranges of the document text, each with its text::

    {"id": 7, "negations": [{"cue": [{"start": 3, "end": 6, "text": "not"}],
                             "scope": [...], "event": [...]}]}

Each shard is encoded on its own (by whichever process annotated it); the final output
is the shards merged in order.
"""
import io
import json
import shutil
from pathlib import Path
from typing import Any, Dict, IO, Iterable, List, Optional, Sequence, Tuple

from ..negation import CONVENTION_KEY, MIRROR, ROLES, SPECULATION_MIRROR, get_negations
from ..util import atomic_write
from .sources import guess_format, import_pyarrow

OUTPUT_FORMATS = ("jsonl", "parquet", "spacy")
_SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet", ".spacy": "spacy"}
#: The DocBin user-data key of a document's id (``doc.user_data[ID_KEY]``).
ID_KEY = "spacy_negation.annotate.id"


def _is_ours(key: Any) -> bool:
    """Whether a ``doc.user_data`` key is one of this package's: the document id, the
    annotation convention, or the mirror of the negation or speculation storage."""
    if key in (ID_KEY, CONVENTION_KEY):
        return True
    return isinstance(key, tuple) and len(key) == 4 and key[0] == "._." and key[1] in (MIRROR, SPECULATION_MIRROR)


def lighten(doc: Any, keep_user_data: bool = False) -> Any:
    """Drop what the output does not need from an annotated doc, in place: ``doc.tensor``
    and the user data of other components, such as the transformer's outputs
    ``doc._.trf_data`` (megabytes per document, kept in memory until the shard is
    written and, in a DocBin with user data, written to disk).

    doc (Doc): the annotated doc.
    keep_user_data (bool): keep the tensors and all user data (``--keep-user-data``).
    RETURNS (Doc): the doc.
    """
    if keep_user_data:
        return doc
    import numpy

    if doc.tensor.size:
        doc.tensor = numpy.zeros((0,), dtype="float32")
    user_data = doc.user_data
    for key in [key for key in user_data if not _is_ours(key)]:
        del user_data[key]
    return doc


def output_format(path: Path, fmt: Optional[str] = None) -> str:
    """The output format: ``fmt`` or guessed from the suffix (.jsonl, .parquet, .spacy)."""
    return guess_format(path, fmt, OUTPUT_FORMATS, _SUFFIXES, "output")


def doc_record(doc: Any, doc_id: Any) -> Dict[str, Any]:
    """The output record of an annotated doc: its id and per negation the cue, scope and
    event as character ranges of ``doc.text`` with their text.

    doc (Doc): the annotated doc.
    doc_id (Any): the document id.
    RETURNS (Dict[str, Any]): the record.
    """
    negations = []
    text: Optional[str] = None  # built once per doc: ``doc.text`` joins every token
    for neg in get_negations(doc):
        if text is None:
            text = doc.text
        negations.append({role: [{"start": s, "end": e, "text": text[s:e]}
                                 for s, e in neg.offsets(role)] for role in ROLES})
    return {"id": doc_id, "negations": negations}


def _parquet_schema() -> Any:
    pa = import_pyarrow("parquet")[0]
    part = pa.list_(pa.struct([("start", pa.int64()), ("end", pa.int64()), ("text", pa.string())]))
    negation = pa.struct([(role, part) for role in ROLES])
    return pa.schema([("id", pa.string()), ("negations", pa.list_(negation))])


def encode_shard(docs: Sequence[Tuple[Any, Any]], fmt: str, keep_user_data: bool = False) -> bytes:
    """A shard's output file content.

    docs (Sequence[Tuple[Doc, Any]]): the annotated docs with their ids, in input order.
    fmt (str): one of OUTPUT_FORMATS. Parquet stores the ids as strings.
    keep_user_data (bool): DocBin: keep the user data of other components (the
        transformer's ``doc._.trf_data``); by default the docs are lightened first
        (:func:`lighten`), so the DocBin holds no tensors.
    RETURNS (bytes): the content.
    """
    if fmt == "spacy":
        from spacy.tokens import DocBin

        docbin = DocBin(store_user_data=True)
        for doc, doc_id in docs:
            lighten(doc, keep_user_data)
            doc.user_data[ID_KEY] = doc_id
            docbin.add(doc)
        return docbin.to_bytes()
    records = [doc_record(doc, doc_id) for doc, doc_id in docs]
    if fmt == "jsonl":
        return b"".join(json.dumps(r, ensure_ascii=False).encode("utf-8") + b"\n"
                        for r in records)
    pa, pq = import_pyarrow("parquet")
    for r in records:
        r["id"] = str(r["id"])
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pylist(records, schema=_parquet_schema()), buf)
    return buf.getvalue()


def merge_shards(paths: Iterable[Path], output: Path, fmt: str) -> None:
    """Write the shard files, in order, as one output file (atomically).

    paths (Iterable[Path]): the shard files in shard order.
    output (Path): the output file.
    fmt (str): one of OUTPUT_FORMATS. A DocBin is merged in memory.
    """
    paths = list(paths)

    def write(f: IO[bytes]) -> None:
        if fmt == "jsonl":
            for path in paths:
                with path.open("rb") as src:
                    shutil.copyfileobj(src, f)
        elif fmt == "parquet":
            pq = import_pyarrow("parquet")[1]
            with pq.ParquetWriter(f, _parquet_schema()) as writer:
                for path in paths:
                    writer.write_table(pq.read_table(path))
        else:
            from spacy.tokens import DocBin

            merged = DocBin(store_user_data=True)
            for path in paths:
                merged.merge(DocBin(store_user_data=True).from_bytes(path.read_bytes()))
            f.write(merged.to_bytes())

    atomic_write(output, write)


def read_output_ids(path: Path, fmt: str) -> List[Any]:
    """The document ids of an output file, in order (for checks and tests)."""
    if fmt == "jsonl":
        with Path(path).open(encoding="utf-8") as f:
            return [json.loads(line)["id"] for line in f]
    if fmt == "parquet":
        return import_pyarrow("parquet")[1].read_table(path, columns=["id"]).column("id").to_pylist()
    import spacy
    from spacy.tokens import DocBin

    docbin = DocBin(store_user_data=True).from_bytes(Path(path).read_bytes())
    return [doc.user_data[ID_KEY] for doc in docbin.get_docs(spacy.blank("xx").vocab)]
