"""The text observation read back into elements: memoised, and every caller gets a list
of its own."""

from __future__ import annotations

from antrap_gym.device.elements import (
    BoundingBox,
    UIElement,
    parse_element_lines,
    parse_numbered_element_lines,
    serialize_elements,
)


def test_a_screen_read_back_twice_gives_equal_lists_that_are_not_shared():
    els = [UIElement(text="Wi-Fi", class_name="android.widget.Switch", is_checkable=True,
                     is_clickable=True, bbox_pixels=BoundingBox(0, 1080, 300, 420),
                     resource_name="com.android.settings:id/switch_widget"),
           UIElement(content_description='a "quoted"\nlabel', bbox_pixels=BoundingBox(5, 50, 6, 60))]
    text = serialize_elements(els)
    first = parse_element_lines(text)
    assert [e.label for e in first] == ["Wi-Fi", 'a "quoted"\nlabel']
    assert first[0].class_name == "Switch" and first[0].resource_name == "switch_widget"
    first.append(first[0])  # a caller's list is its own
    first.reverse()
    again = parse_element_lines(text)
    assert [e.label for e in again] == ["Wi-Fi", 'a "quoted"\nlabel']
    numbered = parse_numbered_element_lines(text)
    numbered.clear()
    assert [i for i, _ in parse_numbered_element_lines(text)] == [0, 1]
    assert parse_element_lines(text + "\n") == again  # another string, the same screen
