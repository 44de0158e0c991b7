"""The system clipboard: Clipper's broadcasts answered as the real helper answers them,
and every edit field's floating toolbar (long-press: Paste, Select all, then Copy/Cut)."""

from __future__ import annotations

from antrap_gym.device.sim import SimDevice
from antrap_gym.tasks.apps import settings as st
from antrap_gym.tasks.checks.system import ClipboardMatches, read_clipboard
from tests.screen import tap

SETTINGS, MARKOR = "com.android.settings", "net.gsantner.markor"


def edit(dev: SimDevice):
    return next(e for e in dev.ui_elements() if (e.class_name or "").endswith("EditText"))


def menu(dev: SimDevice) -> list[str]:
    return [e.text for e in dev.ui_elements() if e.text in ("Cut", "Copy", "Paste", "Select all")]


def test_clipper_get_and_set_print_what_clipper_prints():
    dev = SimDevice()
    got = dev.shell("am broadcast -a clipper.get")
    assert got.exit_code == 0
    assert got.stdout.splitlines() == ["Broadcasting: Intent { act=clipper.get flg=0x400000 }",
                                       'Broadcast completed: result=0, data=""']
    put = dev.shell("am broadcast -a clipper.set -e text 'Tracking #: 1Z \"x\"'")
    assert put.stdout.splitlines()[-1] == \
        'Broadcast completed: result=-1, data="Text is copied into clipboard."'
    assert dev.shell("am broadcast -a clipper.get").stdout.splitlines()[-1] == \
        'Broadcast completed: result=-1, data="Tracking #: 1Z "x""'
    assert read_clipboard(dev) == 'Tracking #: 1Z "x"'
    missing = dev.shell("am broadcast -a clipper.set")
    assert "result=0" in missing.stdout and "No text is provided" in missing.stdout


def test_the_clipboard_is_part_of_a_snapshot():
    dev = SimDevice()
    dev.shell("am broadcast -a clipper.set -e text before")
    snap = dev.snapshot()
    dev.shell("am broadcast -a clipper.set -e text after")
    dev.restore(snap)
    assert read_clipboard(dev) == "before"


def test_select_all_then_copy_puts_a_fields_text_on_the_clipboard():
    dev = SimDevice()
    dev.launch(SETTINGS)
    dev.tap(*edit(dev).center)
    dev.shell("input text 'john.doe@example.com'")
    dev.long_press(*edit(dev).center)
    assert menu(dev) == ["Select all"]  # nothing copied yet: no Paste
    tap(dev, "Select all")
    assert menu(dev) == ["Cut", "Copy"]
    tap(dev, "Copy")
    assert read_clipboard(dev) == "john.doe@example.com"
    assert edit(dev).text == "john.doe@example.com"
    assert ClipboardMatches("John.Doe@example.com").score(dev, None) == 1.0
    assert ClipboardMatches("jane.smith@example.org").score(dev, None) == 0.0


def test_cut_empties_the_field_and_paste_inserts_at_the_cursor():
    dev = SimDevice()
    dev.launch(SETTINGS)
    dev.tap(*edit(dev).center)
    dev.shell("input text 'abc'")
    dev.long_press(*edit(dev).center)
    tap(dev, "Select all")
    tap(dev, "Cut")
    assert read_clipboard(dev) == "abc" and edit(dev).text in ("", None)
    dev.shell("input text 'x'")
    dev.long_press(*edit(dev).center)
    assert menu(dev) == ["Paste", "Select all"]
    tap(dev, "Paste")
    assert edit(dev).text == "xabc"


def test_paste_in_a_markor_note_and_in_a_dialog_field_keeps_the_dialog():
    dev = SimDevice()
    dev.shell("am broadcast -a clipper.set -e text 'Pasted words'")
    dev.launch(MARKOR)
    fab = next(e for e in dev.ui_elements() if e.content_description == "Create a new file or folder")
    dev.tap(*fab.center)
    dev.long_press(*edit(dev).center)  # the name field of the "New file" dialog
    assert menu(dev) == ["Paste"]
    tap(dev, "Paste")
    titles = [e.text for e in dev.ui_elements() if (e.resource_name or "").endswith("alertTitle")]
    assert titles == ["New file"] and edit(dev).text == "Pasted words"


def test_set_clipboard_recipe_restores_the_text_it_replaced():
    dev = SimDevice()
    dev.shell("am broadcast -a clipper.set -e text mine")
    recipe = st.SetClipboard("~~~RESET~~~")
    recipe.apply(dev)
    assert read_clipboard(dev) == "~~~RESET~~~"
    recipe.undo(dev)
    assert read_clipboard(dev) == "mine"


def test_the_paste_and_copy_keys_act_on_the_focused_field():
    dev = SimDevice()
    dev.shell("am broadcast -a clipper.set -e text 'from the key'")
    dev.launch(SETTINGS)
    dev.tap(*edit(dev).center)
    assert dev.shell("input keyevent KEYCODE_PASTE").exit_code == 0
    assert edit(dev).text == "from the key"
    dev.shell("input keyevent 279")
    assert edit(dev).text == "from the keyfrom the key"
    dev.shell("input keycombination 113 29")  # CTRL+A
    dev.shell("input keyevent KEYCODE_COPY")
    assert read_clipboard(dev) == "from the keyfrom the key"
