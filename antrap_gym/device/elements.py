"""Accessibility elements: AndroidWorld's `UIElement` fields, uiautomator XML both ways.

Field names follow AndroidWorld (`content_description`, `bbox_pixels`,
`is_clickable`, ...) so agents written for it port over unchanged.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from functools import lru_cache
from typing import NamedTuple
from xml.sax.saxutils import quoteattr


class BoundingBox(NamedTuple):
    """A rectangle in device pixels (AndroidWorld's field names)."""

    x_min: int
    x_max: int
    y_min: int
    y_max: int

    @property
    def center(self) -> tuple[int, int]:
        return (self.x_min + self.x_max) // 2, (self.y_min + self.y_max) // 2

    @property
    def width(self) -> int:
        return self.x_max - self.x_min

    @property
    def height(self) -> int:
        return self.y_max - self.y_min

    def contains(self, x: float, y: float) -> bool:
        return self.x_min <= x < self.x_max and self.y_min <= y < self.y_max


class UIElement(NamedTuple):
    """One node of the accessibility tree, in device pixels.

    Immutable and cheap to build (a named tuple): the simulated phone makes
    thousands per second.
    """

    text: str | None = None
    content_description: str | None = None
    class_name: str | None = None
    bbox_pixels: BoundingBox | None = None
    hint_text: str | None = None
    is_checked: bool = False
    is_checkable: bool = False
    is_clickable: bool = False
    is_editable: bool = False
    is_enabled: bool = True
    is_focused: bool = False
    is_focusable: bool = False
    is_long_clickable: bool = False
    is_scrollable: bool = False
    is_selected: bool = False
    is_visible: bool = True
    package_name: str | None = None
    resource_name: str | None = None

    @property
    def center(self) -> tuple[int, int]:
        return self.bbox_pixels.center if self.bbox_pixels else (0, 0)

    @property
    def label(self) -> str:
        """What a person would call this element: its text, else its description."""
        return self.text or self.content_description or self.hint_text or ""

    @property
    def is_interactive(self) -> bool:
        return (
            self.is_clickable
            or self.is_long_clickable
            or self.is_editable
            or self.is_scrollable
            or self.is_checkable
        )


_FLAG_NAMES = (
    ("is_clickable", "clickable"),
    ("is_long_clickable", "long-clickable"),
    ("is_editable", "editable"),
    ("is_scrollable", "scrollable"),
    ("is_checkable", "checkable"),
    ("is_checked", "checked"),
    ("is_focused", "focused"),
    ("is_selected", "selected"),
)


def _short_class(class_name: str | None) -> str:
    return (class_name or "View").rsplit(".", 1)[-1]


@lru_cache(maxsize=8192)
def element_line(index: int, el: UIElement) -> str:
    """A compact, model-friendly one-line description of an element (memoised:
    most elements survive from one step to the next)."""
    parts = [f"[{index}]", _short_class(el.class_name)]
    if el.text:
        parts.append(_q(el.text))
    if el.content_description:
        parts.append("desc=" + _q(el.content_description))
    if el.hint_text:
        parts.append("hint=" + _q(el.hint_text))
    if el.resource_name:
        parts.append("id=" + el.resource_name.rsplit("/", 1)[-1])
    if (el.is_clickable or el.is_long_clickable or el.is_editable or el.is_scrollable
            or el.is_checkable or el.is_focused or el.is_selected or not el.is_enabled):
        flags = [short for attr, short in _FLAG_NAMES if getattr(el, attr)]
        if not el.is_enabled:
            flags.append("disabled")
        parts.append("{" + ",".join(flags) + "}")
    b = el.bbox_pixels
    if b is not None:
        parts.append(f"({b.x_min},{b.y_min},{b.x_max},{b.y_max})")
    return " ".join(parts)


_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f\u2028\u2029]')


def _q(s: str) -> str:
    if _NEEDS_ESCAPE.search(s) is None:
        return '"' + s + '"'
    return json.dumps(s, ensure_ascii=False)


def serialize_elements(elements: list[UIElement]) -> str:
    """The text observation: one line per element, indexed for `click index=`."""
    return "\n".join([element_line(i, el) for i, el in enumerate(elements)])


_LINE_RE = re.compile(
    r'^\[(?P<i>\d+)\] (?P<cls>\S+)(?P<rest>.*?)(?: \((?P<b>-?\d+,-?\d+,-?\d+,-?\d+)\))?$')
_FIELD_RE = re.compile(r' (?:(?P<key>desc|hint)=)?(?P<str>"(?:[^"\\]|\\.)*")|'
                       r' id=(?P<id>\S+)| \{(?P<flags>[\w,-]+)\}')


def parse_element_lines(text: str) -> list[UIElement]:
    """Read the text observation back into elements (the inverse of `element_line`).

    Class names come back short (e.g. `Switch`), ids as the part after `:id/`.
    """
    return list(_parsed(text)[1])


def parse_numbered_element_lines(text: str) -> list[tuple[int, UIElement]]:
    """`(i, element)` for each `[i] ...` line: the numbers stay those the agent
    addresses, even where a view leaves elements out."""
    return list(_parsed(text)[0])


@lru_cache(maxsize=1024)
def _parsed(text: str) -> tuple[tuple[tuple[int, UIElement], ...], tuple[UIElement, ...]]:
    """Both parses of `text`, memoised: the solver, the traps and the agents read the same
    screens back again and again (the oracle's forks revisit them), and elements are
    immutable, so callers share them and get lists of their own."""
    numbered = tuple(_parse_numbered(text))
    return numbered, tuple(el for _, el in numbered)


def _parse_numbered(text: str) -> list[tuple[int, UIElement]]:
    out: list[tuple[int, UIElement]] = []
    flag_of = {short: attr for attr, short in _FLAG_NAMES}
    for line in text.splitlines():
        m = _LINE_RE.match(line)
        if m is None:
            continue
        kw: dict = {"class_name": m.group("cls")}
        for f in _FIELD_RE.finditer(m.group("rest")):
            if f.group("str") is not None:
                kw[{"desc": "content_description", "hint": "hint_text", None: "text"}[f.group("key")]] = \
                    json.loads(f.group("str"))
            elif f.group("id") is not None:
                kw["resource_name"] = f.group("id")
            elif f.group("flags") is not None:
                for fl in f.group("flags").split(","):
                    if fl == "disabled":
                        kw["is_enabled"] = False
                    elif fl in flag_of:
                        kw[flag_of[fl]] = True
        if m.group("b"):
            x0, y0, x1, y1 = (int(v) for v in m.group("b").split(","))
            kw["bbox_pixels"] = BoundingBox(x0, x1, y0, y1)
        out.append((int(m.group("i")), UIElement(**kw)))
    return out


# --- uiautomator XML --------------------------------------------------------

XML_HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
_BOUNDS_RE = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_attr(value: str | None) -> str:
    return quoteattr(_XML_INVALID.sub("", value or ""), {"\n": "&#10;", "\r": "&#13;"})


def node_attrs(el: UIElement, index: int) -> str:
    """The attribute string uiautomator writes for one node."""
    b = el.bbox_pixels or BoundingBox(0, 0, 0, 0)

    def flag(v: bool) -> str:
        return "true" if v else "false"

    return (
        f"index=\"{index}\" text={xml_attr(el.text)} resource-id={xml_attr(el.resource_name)} "
        f"class={xml_attr(el.class_name)} package={xml_attr(el.package_name)} "
        f"content-desc={xml_attr(el.content_description)} checkable=\"{flag(el.is_checkable)}\" "
        f"checked=\"{flag(el.is_checked)}\" clickable=\"{flag(el.is_clickable)}\" "
        f"enabled=\"{flag(el.is_enabled)}\" focusable=\"{flag(el.is_focusable)}\" "
        f"focused=\"{flag(el.is_focused)}\" scrollable=\"{flag(el.is_scrollable)}\" "
        f"long-clickable=\"{flag(el.is_long_clickable)}\" password=\"false\" "
        f"selected=\"{flag(el.is_selected)}\" hint={xml_attr(el.hint_text)} "
        f"bounds=\"[{b.x_min},{b.y_min}][{b.x_max},{b.y_max}]\""
    )


def parse_ui_xml(xml_text: str) -> list[UIElement]:
    """Parse `uiautomator dump` XML into elements (all nodes, document order).

    Works on dumps from real devices as well as the simulated phone's.
    """
    start = xml_text.find("<?xml")
    if start < 0:
        start = xml_text.find("<hierarchy")
    end = xml_text.rfind("</hierarchy>")
    if start < 0 or end < 0:
        raise ValueError("not a uiautomator dump")
    root = ET.fromstring(xml_text[start : end + len("</hierarchy>")].encode())
    out: list[UIElement] = []
    for node in root.iter("node"):
        a = node.attrib
        m = _BOUNDS_RE.match(a.get("bounds", ""))
        bbox = None
        if m:
            x0, y0, x1, y1 = (int(g) for g in m.groups())
            bbox = BoundingBox(x0, x1, y0, y1)

        def t(name: str, a: dict = a) -> bool:
            return a.get(name) == "true"

        cls = a.get("class") or None
        out.append(
            UIElement(
                text=a.get("text") or None,
                content_description=a.get("content-desc") or None,
                class_name=cls,
                bbox_pixels=bbox,
                hint_text=a.get("hint") or None,
                is_checked=t("checked"),
                is_checkable=t("checkable"),
                is_clickable=t("clickable"),
                is_editable=bool(cls and "EditText" in cls),
                is_enabled=a.get("enabled", "true") == "true",
                is_focused=t("focused"),
                is_focusable=t("focusable"),
                is_long_clickable=t("long-clickable"),
                is_scrollable=t("scrollable"),
                is_selected=t("selected"),
                package_name=a.get("package") or None,
                resource_name=a.get("resource-id") or None,
            )
        )
    return out


def filter_meaningful(elements: list[UIElement]) -> list[UIElement]:
    """Keep the nodes an agent cares about: labelled or interactive, non-empty bounds."""
    keep = []
    for el in elements:
        b = el.bbox_pixels
        if b is None or b.width <= 0 or b.height <= 0:
            continue
        if el.text or el.content_description or el.is_interactive or (
                (el.class_name or "").endswith(".ListView")):  # a popup menu's list
            keep.append(el)
    return keep


UIELEMENT_FIELDS = UIElement._fields
