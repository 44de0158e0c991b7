"""Finding and touching what is on the simulated phone's screen, for the tests.

`dev` is a `SimDevice`, a `Phone`, or anything else with `ui_elements()` and
`tap(x, y)` (`long_press(x, y)` for `long_press`, `type_text(text)` for
`type_into`). An element is picked by criteria, each optional, all to be met:

- ``text``: its text, exactly (the one criterion that may be given by position)
- ``contains``: a substring of its text
- ``desc``: its content description, exactly
- ``rid``: its resource id: the name after ``:id/`` in any package (``rid="fab"``),
  or the whole name (``rid="com.android.chrome:id/url_bar"``, or a web page's ``id``)
- ``cls``: the end of its class name (``cls="EditText"``, ``cls="android.widget.Switch"``)
"""

from __future__ import annotations

from antrap_gym.device.elements import UIElement


def matches(el: UIElement, text: str | None = None, desc: str | None = None, rid: str | None = None,
            cls: str | None = None, contains: str | None = None) -> bool:
    """Whether `el` meets every criterion given (see the module's docstring)."""
    return ((text is None or el.text == text)
            and (contains is None or contains in (el.text or ""))
            and (desc is None or el.content_description == desc)
            and (rid is None or el.resource_name == rid
                 or (el.resource_name or "").endswith(":id/" + rid))
            and (cls is None or (el.class_name or "").endswith(cls)))


def find_all(dev, text: str | None = None, **criteria: str) -> list[UIElement]:
    """Every element on screen meeting the criteria, in the screen's order."""
    return [el for el in dev.ui_elements() if matches(el, text, **criteria)]


def find(dev, text: str | None = None, desc: str | None = None, rid: str | None = None,
         cls: str | None = None, contains: str | None = None) -> UIElement | None:
    """The first element on screen meeting the criteria, or None."""
    return next((el for el in dev.ui_elements()
                 if matches(el, text, desc=desc, rid=rid, cls=cls, contains=contains)), None)


def need(dev, text: str | None = None, **criteria: str) -> UIElement:
    """`find`'s element; an AssertionError naming what is on screen when there is none."""
    el = find(dev, text, **criteria)
    if el is None:
        wanted = {k: v for k, v in {"text": text, **criteria}.items() if v is not None}
        shown = [e.label for e in dev.ui_elements() if e.label]
        raise AssertionError(f"no element {wanted} on screen: {shown}")
    return el


def tap(dev, text: str | None = None, **criteria: str) -> None:
    """Tap the centre of `need`'s element."""
    dev.tap(*need(dev, text, **criteria).center)


def long_press(dev, text: str | None = None, **criteria: str) -> None:
    """Long-press the centre of `need`'s element."""
    dev.long_press(*need(dev, text, **criteria).center)


def type_into(dev, rid: str, text: str) -> None:
    """Tap the field with this resource id, then type `text` (added to what it holds)."""
    tap(dev, rid=rid)
    dev.type_text(text)


def texts(dev) -> list[str]:
    """The non-empty texts on screen, in the screen's order."""
    return [el.text for el in dev.ui_elements() if el.text]
