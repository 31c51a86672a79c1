"""Reading ``.spacy`` (DocBin) files with clear errors."""
from pathlib import Path
from typing import List, Optional, Union

from spacy.tokens import Doc, DocBin
from spacy.vocab import Vocab

from ..errors import Errors, NegationFormatError
from ..negation import register_extensions
from ..util import blank_nlp, check_input_file


def read_docbin(path: Union[str, Path], lang: str = "en", vocab: Optional[Vocab] = None) -> List[Doc]:
    """Read all docs of a .spacy file.

    path (Union[str, Path]): the file.
    lang (str): the language of a new vocab, if no vocab is given.
    vocab (Optional[Vocab]): the vocab to use.
    RETURNS (List[Doc]): the docs.
    RAISES (FileNotFoundError): no such file (E130).
    RAISES (NegationFormatError): a directory, FIFO or device (E210, E970; never opened), or
        not a .spacy file (E132).
    """
    path = check_input_file(path)
    register_extensions()
    vocab = vocab if vocab is not None else blank_nlp(lang).vocab
    try:
        db = DocBin().from_bytes(path.read_bytes())
        return list(db.get_docs(vocab))
    except Exception as err:  # srsly/zlib raise various types on garbage
        raise NegationFormatError(Errors.E132.format(path=path, reason=err), path) from err
