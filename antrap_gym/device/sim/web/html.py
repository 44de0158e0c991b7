"""HTML source -> a plain node tree (Python's html.parser), the form the page's DOM is built from.

A node is a text string or `[tag, {attr: value}, [children]]`: JSON as it is, so the
JavaScript side builds its DOM from one string (`build_document`); `innerHTML`
fragments are parsed on that side by the same rules. The tree-building rules are the
subset of HTML5's that hand-written pages lean on: void elements, a `<p>`/`<li>`/
`<option>` closed by the next one, stray end tags ignored, and every document given
`html`, `head` and `body`.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser

Node = str | list

VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "param", "source", "track", "wbr"))
#: elements that belong in <head> when they come before any body content
HEAD_TAGS = frozenset(("title", "meta", "link", "style", "script", "base"))
#: a start tag of these closes an open <p>
CLOSES_P = frozenset(("address", "article", "aside", "blockquote", "div", "dl", "fieldset",
                      "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
                      "main", "nav", "ol", "p", "pre", "section", "table", "ul"))
#: a start tag closes an open element of the same kind (and what the key names)
SELF_CLOSING_SIBLINGS = {"li": ("li",), "option": ("option",), "dt": ("dt", "dd"),
                         "dd": ("dt", "dd")}
#: nesting cap: deeper start tags are dropped (a guard against pathological pages)
MAX_DEPTH = 256


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root: list = ["#root", {}, []]
        self.stack: list[list] = [self.root]

    def _open(self, tag: str) -> bool:
        return any(n[0] == tag for n in self.stack[1:])

    def _close(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if (tag == "p" or tag in CLOSES_P) and self.stack[-1][0] == "p":
            self.stack.pop()
        for closes in SELF_CLOSING_SIBLINGS.get(tag, ()):
            if self.stack[-1][0] == closes:
                self.stack.pop()
        node = [tag, {k: ("" if v is None else v) for k, v in attrs}, []]
        if len(self.stack) > MAX_DEPTH:
            return
        self.stack[-1][2].append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack[-1][0] == tag:
            self.stack.pop()  # <div/> in HTML opens a div; kept closed for XHTML-ish pages

    def handle_endtag(self, tag: str) -> None:
        if tag == "br":  # </br> is a <br> (HTML5)
            self.handle_starttag("br", [])
        elif self._open(tag):
            self._close(tag)

    def handle_data(self, data: str) -> None:
        kids = self.stack[-1][2]
        if kids and isinstance(kids[-1], str):
            kids[-1] += data
        elif data:
            kids.append(data)


def _children(source: str) -> list[Node]:
    b = _TreeBuilder()
    b.feed(source)
    b.close()
    return b.root[2]


def _first(nodes: list[Node], tag: str) -> list | None:
    return next((n for n in nodes if isinstance(n, list) and n[0] == tag), None)


def parse_document(source: str) -> list:
    """The whole document as `["html", attrs, [head, body]]`."""
    nodes = _children(source)
    html = _first(nodes, "html")
    top = html[2] if html is not None else nodes
    attrs = html[1] if html is not None else {}
    head = _first(top, "head")
    body = _first(top, "body")
    head = head if head is not None else ["head", {}, []]
    if body is None:
        body = ["body", {}, []]
        in_head = True
        for n in top:
            if n is head:
                continue
            if in_head and isinstance(n, list) and n[0] in HEAD_TAGS:
                head[2].append(n)
            elif in_head and isinstance(n, str) and not n.strip():
                continue
            else:
                in_head = False
                body[2].append(n)
    else:
        before_body = True
        for n in top:  # content outside <body> (after </body>, stray text) goes into it
            if n is body:
                before_body = False
            if n is head or n is body or (isinstance(n, str) and not n.strip()):
                continue
            if before_body and isinstance(n, list) and n[0] in HEAD_TAGS:
                head[2].append(n)
            else:
                body[2].append(n)
    return ["html", attrs, [head, body]]


def build_document(source: str) -> str:
    """The document tree as JSON, for the DOM builder."""
    return json.dumps(parse_document(source), separators=(",", ":"), ensure_ascii=False)

