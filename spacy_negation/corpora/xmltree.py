"""XML corpus files parsed with the line of every element, for errors that name file and line."""
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Union
from xml.etree.ElementTree import Element
from xml.parsers import expat

from ..errors import Errors, NegationFormatError
from ..util import read_bytes


@dataclass
class XMLTree:
    """A parsed XML file: the root element and the line each element starts on.

    root (Element): the root element.
    lines (Dict[int, int]): ``id(element)`` -> 1-based line of its start tag.
    path (Path): the file.
    """

    root: Element
    lines: Dict[int, int]
    path: Path

    def line(self, el: Element) -> int:
        """The line of an element's start tag (0 if unknown).

        el (Element): the element.
        RETURNS (int): the line.
        """
        return self.lines.get(id(el), 0)

    def error(self, template: str, el: Optional[Element] = None, line: Optional[int] = None,
              **kwargs: Any) -> NegationFormatError:
        """An error for this file, at an element's line.

        template (str): the message template (an ``Errors`` entry with ``{path}``, ``{line}``).
        el (Optional[Element]): the element the error is about.
        line (Optional[int]): the line, if no element is given.
        kwargs (Any): the template's other fields.
        RETURNS (NegationFormatError): the error, to raise.
        """
        line = self.line(el) if el is not None else (line or 0)
        return NegationFormatError(template.format(path=self.path, line=line, **kwargs), self.path,
                                   line or None)


def parse_xml(path: Union[str, Path], root_tag: Optional[str] = None) -> XMLTree:
    """Parse an XML file into an ElementTree element tree and remember each element's line.

    Uses expat directly (the standard library's ElementTree does not keep line numbers).
    External DTDs are not loaded; character references and the predefined entities are
    resolved.

    path (Union[str, Path]): the file.
    root_tag (Optional[str]): the required name of the root element.
    RETURNS (XMLTree): the tree.
    RAISES (NegationFormatError): unreadable or not well-formed (line from the parser), or a
        different root element.
    """
    path = Path(path)
    raw = read_bytes(path)
    lines: Dict[int, int] = {}
    stack: List[Element] = []
    roots: List[Element] = []
    last: List[Optional[Element]] = [None]  # the element whose text or tail gets character data
    in_tail = [False]
    parser = expat.ParserCreate()
    parser.buffer_text = True

    def start(tag: str, attrs: Dict[str, str]) -> None:
        el = Element(tag, attrs)
        lines[id(el)] = parser.CurrentLineNumber
        if stack:
            stack[-1].append(el)
        else:
            roots.append(el)
        stack.append(el)
        last[0], in_tail[0] = el, False

    def end(tag: str) -> None:
        el = stack.pop()
        last[0], in_tail[0] = el, True

    def data(text: str) -> None:
        el = last[0]
        if el is None:
            return
        if in_tail[0]:
            el.tail = (el.tail or "") + text
        else:
            el.text = (el.text or "") + text

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(raw, True)
    except expat.ExpatError as err:
        line = err.lineno or parser.ErrorLineNumber
        raise NegationFormatError(
            Errors.E400.format(path=path, line=line, reason=expat.ErrorString(err.code)), path, line
        ) from err
    if not roots:
        raise NegationFormatError(Errors.E400.format(path=path, line=1, reason="no element found"), path, 1)
    root = roots[0]
    tree = XMLTree(root=root, lines=lines, path=path)
    if root_tag is not None and root.tag != root_tag:
        raise tree.error(Errors.E404, root, tag=root.tag, expected=root_tag)
    return tree
