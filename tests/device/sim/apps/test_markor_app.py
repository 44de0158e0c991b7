"""Markor on the simulated phone: UI flows through the public device API, and
the oracle solving every Markor template (clean runs)."""

from __future__ import annotations

import shlex

import gymnasium as gym
import numpy as np
import pytest

import antrap_gym  # noqa: F401  (registers the environments)
import antrap_gym.tasks.markor_reference as mr
import antrap_gym.tasks.markor_tasks as mt
from antrap_gym.agents import OracleAgent
from antrap_gym.device.elements import UIElement
from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.tasks.registry import TEMPLATES
from tests.screen import find, long_press, need, tap, texts

ROOT = "/sdcard/Documents/Markor"
PKG = "net.gsantner.markor"
FAB = "Create a new file or folder"
EDITOR_RID = PKG + ":id/document__fragment__edit__highlighting_editor"


# --- helpers -------------------------------------------------------------------------------


def q(s: str) -> str:
    return shlex.quote(s)


def seed(dev: SimDevice, files: dict[str, str | None]) -> None:
    """Write notes (None = folder) under the Markor root through the shell."""
    cmds = []
    for rel, text in files.items():
        path = f"{ROOT}/{rel}"
        if text is None:
            cmds.append(f"mkdir -p {q(path)}")
        else:
            cmds.append(f"printf '%s' {q(text)} > {q(path)}")
    assert dev.shell(" && ".join(cmds)).exit_code == 0


def cat(dev: SimDevice, rel: str) -> str | None:
    res = dev.shell(f"cat {q(ROOT + '/' + rel)}")
    return res.stdout if res.exit_code == 0 else None


def ls(dev: SimDevice, rel: str = "") -> list[str]:
    res = dev.shell(f"ls {q(ROOT + ('/' + rel if rel else ''))}")
    assert res.exit_code == 0, res.stderr
    return res.stdout.split("\n")[:-1]


def dialog_title(dev: SimDevice) -> str | None:
    el = next((e for e in dev.ui_elements() if (e.resource_name or "").endswith("alertTitle")), None)
    return el.text if el else None


def row_titles(dev: SimDevice) -> list[str]:
    """The browser's entry names, top to bottom: the first text inside each
    long-clickable row."""
    els = dev.ui_elements()
    out = []
    for row in (e for e in els if e.is_long_clickable and e.class_name.endswith("LinearLayout")):
        inside = [e for e in els if e.text and e is not row and e.bbox_pixels
                  and row.bbox_pixels.contains(*e.bbox_pixels.center)]
        out.append(inside[0].text)
    return out


def editor(dev: SimDevice) -> UIElement:
    return need(dev, rid=EDITOR_RID)


def type_into_element(dev: SimDevice, el: UIElement, text: str, clear: bool = True) -> None:
    dev.tap(*el.center)
    if clear:
        dev.shell("input keycombination KEYCODE_CTRL_LEFT KEYCODE_A")
        dev.key("KEYCODE_DEL")
    dev.type_text(text)


def open_markor(dev: SimDevice) -> None:
    assert dev.launch(PKG).ok
    assert dev.foreground() == (PKG, PKG + ".activity.MainActivity")


# --- install & browser ----------------------------------------------------------------------


def test_install_creates_markor_folder(dev):
    assert dev.shell(f"test -d {ROOT}").exit_code == 0
    assert "markor" in dev.app_packages()


def test_browser_lists_folders_first_then_files_by_name(dev):
    seed(dev, {"zeta": None, "Alpha": None, "b.md": "b", "A.txt": "a", "c.md": "ccc",
               ".hidden": "dotfiles stay hidden"})
    open_markor(dev)
    assert row_titles(dev) == ["Alpha", "zeta", "A.txt", "b.md", "c.md"]
    # summaries: item counts for folders, size for files
    assert find(dev, text="Empty folder") is not None
    assert any(t.endswith("3 B") for t in texts(dev))
    assert need(dev, text="Alpha").bbox_pixels.y_min < need(dev, text="A.txt").bbox_pixels.y_min


def test_empty_folder_message(dev):
    open_markor(dev)
    assert any("empty" in t.lower() for t in texts(dev))
    assert find(dev, desc=FAB) is not None


def test_long_folder_scrolls_to_its_last_entry(dev):
    seed(dev, {f"note_{i:02d}.md": f"text {i}" for i in range(30)})
    open_markor(dev)
    assert find(dev, text="note_29.md") is None
    lst = need(dev, rid=PKG + ":id/ui__filesystem_dialog__list")
    assert lst.is_scrollable
    for _ in range(10):
        x, y = lst.bbox_pixels.center
        dev.swipe(x, y + 400, x, y - 400, 400)
        if find(dev, text="note_29.md"):
            break
    el = need(dev, text="note_29.md")
    fab = need(dev, desc=FAB).bbox_pixels
    assert el.bbox_pixels.y_max <= fab.y_min  # the last row clears the FAB
    dev.tap(*el.center)
    assert editor(dev).text == "text 29"


# --- creating --------------------------------------------------------------------------------


def test_create_file_via_dialog_then_cat_shows_text(dev):
    open_markor(dev)
    tap(dev, desc=FAB)
    assert dialog_title(dev) == "New file"
    field = need(dev, cls="android.widget.EditText")
    assert field.hint_text == "Name"
    type_into_element(dev, field, "shopping", clear=False)
    tap(dev, text="OK")
    # a name without an extension becomes Markdown, and the new file opens in the editor
    assert dev.foreground()[1].endswith(".activity.DocumentActivity")
    assert find(dev, text="shopping.md") is not None
    assert cat(dev, "shopping.md") == ""
    type_into_element(dev, editor(dev), "Eggs\nMilk", clear=False)
    tap(dev, desc="Save")
    assert cat(dev, "shopping.md") == "Eggs\nMilk"


def test_create_file_with_enter_keeps_explicit_extension(dev):
    open_markor(dev)
    tap(dev, desc=FAB)
    type_into_element(dev, need(dev, cls="android.widget.EditText"), "todo.txt", clear=False)
    dev.key("KEYCODE_ENTER")
    assert dev.foreground()[1].endswith(".activity.DocumentActivity")
    assert ls(dev) == ["todo.txt"]


def test_create_existing_name_does_not_overwrite(dev):
    seed(dev, {"plan.md": "keep me"})
    open_markor(dev)
    tap(dev, desc=FAB)
    type_into_element(dev, need(dev, cls="android.widget.EditText"), "plan", clear=False)
    tap(dev, text="OK")
    assert dev.foreground()[1].endswith(".activity.MainActivity")
    assert dialog_title(dev) == "New file"  # still asking, the typed name kept
    assert need(dev, cls="android.widget.EditText").text == "plan"
    assert cat(dev, "plan.md") == "keep me"
    tap(dev, text="Cancel")
    assert dialog_title(dev) is None
    assert ls(dev) == ["plan.md"]


def test_create_folder_from_new_file_dialog(dev):
    open_markor(dev)
    tap(dev, desc=FAB)
    tap(dev, text="Folder")
    assert dialog_title(dev) == "New folder"
    type_into_element(dev, need(dev, cls="android.widget.EditText"), "Work", clear=False)
    tap(dev, text="OK")
    assert dev.shell(f"test -d {ROOT}/Work").exit_code == 0
    assert row_titles(dev) == ["Work"]
    # a name typed in the New file dialog becomes the folder's name directly
    tap(dev, desc=FAB)
    type_into_element(dev, need(dev, cls="android.widget.EditText"), "Home", clear=False)
    tap(dev, text="Folder")
    assert dev.shell(f"test -d {ROOT}/Home").exit_code == 0
    assert dev.shell(f"test -e {ROOT}/Home.md").exit_code != 0


def test_folders_enter_up_and_back(dev):
    seed(dev, {"Work": None, "Work/Sub": None, "Work/a.md": "A"})
    open_markor(dev)
    assert find(dev, desc="Navigate up") is None  # not above the root
    tap(dev, text="Work")
    assert find(dev, text="Markor / Work") is not None
    assert row_titles(dev) == ["Sub", "a.md"]
    tap(dev, text="Sub")
    assert any("empty" in t.lower() for t in texts(dev))
    # a note created here lands in the folder shown
    tap(dev, desc=FAB)
    type_into_element(dev, need(dev, cls="android.widget.EditText"), "deep", clear=False)
    dev.key("KEYCODE_ENTER")
    dev.key("KEYCODE_BACK")
    assert ls(dev, "Work/Sub") == ["deep.md"]
    tap(dev, desc="Navigate up")
    assert row_titles(dev) == ["Sub", "a.md"]
    dev.key("KEYCODE_BACK")  # BACK in a subfolder goes to the parent
    assert row_titles(dev) == ["Work"]
    assert dev.foreground()[0] == PKG
    dev.key("KEYCODE_BACK")  # at the root it leaves the app
    assert dev.foreground()[0] != PKG


def test_browser_survives_its_folder_being_removed(dev):
    seed(dev, {"Work": None, "Work/a.md": "A"})
    open_markor(dev)
    tap(dev, text="Work")
    dev.shell(f"rm -r {ROOT}/Work")
    assert find(dev, text="Markor") is not None
    assert any("empty" in t.lower() for t in texts(dev))


# --- the editor ------------------------------------------------------------------------------


def test_editor_cursor_inserts_in_the_middle(dev):
    seed(dev, {"greet.md": "Hello world"})
    open_markor(dev)
    tap(dev, text="greet.md")
    ed = editor(dev)
    assert ed.text == "Hello world"
    d = dev.phone.density
    size = round(16 * d)
    x = ed.bbox_pixels.x_min + round(16 * d) + txt.text_width("Hello", size) + 1
    y = ed.bbox_pixels.y_min + round(12 * d) + txt.line_height(size) // 2
    dev.tap(x, y)
    dev.type_text(",")
    assert editor(dev).text == "Hello, world"
    dev.key("KEYCODE_MOVE_END")
    dev.type_text("!")
    assert editor(dev).text == "Hello, world!"
    assert cat(dev, "greet.md") == "Hello world"  # not saved yet


def test_editor_autosaves_on_back(dev):
    seed(dev, {"n.md": "one"})
    open_markor(dev)
    tap(dev, text="n.md")
    type_into_element(dev, editor(dev), "one\ntwo", clear=True)
    dev.key("KEYCODE_BACK")  # hides the keyboard
    assert cat(dev, "n.md") == "one"
    dev.key("KEYCODE_BACK")  # leaves the editor: Markor saves
    assert dev.foreground()[1].endswith(".activity.MainActivity")
    assert cat(dev, "n.md") == "one\ntwo"


def test_editor_autosaves_on_up(dev):
    seed(dev, {"n.md": "one"})
    open_markor(dev)
    tap(dev, text="n.md")
    type_into_element(dev, editor(dev), "changed", clear=True)
    dev.key("KEYCODE_BACK")
    tap(dev, desc="Navigate up")
    assert cat(dev, "n.md") == "changed"


def test_editor_unchanged_text_keeps_mtime(dev):
    seed(dev, {"n.md": "same"})
    before = dev.shell(f"ls -l {ROOT}").stdout
    dev.wait(120)
    open_markor(dev)
    tap(dev, text="n.md")
    dev.key("KEYCODE_BACK")
    assert dev.shell(f"ls -l {ROOT}").stdout == before


def test_editor_overflow_rename_and_delete(dev):
    seed(dev, {"a.md": "A"})
    open_markor(dev)
    tap(dev, text="a.md")
    tap(dev, desc="More options")
    tap(dev, text="Rename")
    assert dialog_title(dev) == "Rename"
    type_into_element(dev, need(dev, cls="android.widget.EditText"), "b.md")
    dev.key("KEYCODE_ENTER")
    assert find(dev, text="b.md") is not None  # the toolbar follows the new name
    assert ls(dev) == ["b.md"]
    tap(dev, desc="More options")
    tap(dev, text="Delete")
    assert dialog_title(dev) == "Delete b.md?"
    tap(dev, text="Delete")
    assert dev.foreground()[1].endswith(".activity.MainActivity")
    assert ls(dev) == []


def test_editor_state_survives_snapshot_restore(dev):
    seed(dev, {"a.md": "A"})
    open_markor(dev)
    tap(dev, text="a.md")
    type_into_element(dev, editor(dev), "draft")
    snap = dev.snapshot()
    dev.key("KEYCODE_BACK")
    dev.key("KEYCODE_BACK")
    assert cat(dev, "a.md") == "draft"
    dev.restore(snap)
    assert cat(dev, "a.md") == "A"
    assert editor(dev).text == "draft"


# --- context menu ----------------------------------------------------------------------------


def open_item_menu(dev: SimDevice, text: str) -> None:
    """Long-press the list item `text`: its context menu opens."""
    long_press(dev, text=text)
    assert [t for t in ("Rename", "Move to…", "Delete") if find(dev, text=t)] == \
        ["Rename", "Move to…", "Delete"]


def test_rename_via_context_menu(dev):
    seed(dev, {"old.md": "body", "other.md": "x"})
    open_markor(dev)
    open_item_menu(dev, "old.md")
    tap(dev, text="Rename")
    assert dialog_title(dev) == "Rename"
    field = need(dev, cls="android.widget.EditText")
    assert field.text == "old.md"  # prefilled
    type_into_element(dev, field, "new.md")
    tap(dev, text="OK")
    assert ls(dev) == ["new.md", "other.md"]
    assert cat(dev, "new.md") == "body"
    assert row_titles(dev) == ["new.md", "other.md"]


def test_rename_onto_existing_name_is_refused(dev):
    seed(dev, {"a.md": "A", "b.md": "B"})
    open_markor(dev)
    open_item_menu(dev, "a.md")
    tap(dev, text="Rename")
    type_into_element(dev, need(dev, cls="android.widget.EditText"), "b.md")
    dev.key("KEYCODE_ENTER")
    assert cat(dev, "a.md") == "A" and cat(dev, "b.md") == "B"
    assert dialog_title(dev) == "Rename"


def test_delete_via_context_menu_with_confirmation(dev):
    seed(dev, {"a.md": "A", "b.md": "B"})
    open_markor(dev)
    open_item_menu(dev, "a.md")
    tap(dev, text="Delete")
    assert dialog_title(dev) == "Delete a.md?"
    tap(dev, text="Cancel")
    assert ls(dev) == ["a.md", "b.md"]
    open_item_menu(dev, "a.md")
    tap(dev, text="Delete")
    tap(dev, text="Delete")
    assert ls(dev) == ["b.md"]
    assert row_titles(dev) == ["b.md"]


def test_delete_folder_removes_its_contents(dev):
    seed(dev, {"Old": None, "Old/x.md": "x"})
    open_markor(dev)
    open_item_menu(dev, "Old")
    tap(dev, text="Delete")
    assert dialog_title(dev) == "Delete Old?"
    tap(dev, text="Delete")
    assert ls(dev) == []


def test_move_note_into_folder_and_back_to_top(dev):
    seed(dev, {"Work": None, "Home": None, "a.md": "A"})
    open_markor(dev)
    open_item_menu(dev, "a.md")
    tap(dev, text="Move to…")
    assert dialog_title(dev) == "Move a.md to"
    tap(dev, text="Work")
    assert ls(dev) == ["Home", "Work"]
    assert cat(dev, "Work/a.md") == "A"
    tap(dev, text="Work")
    open_item_menu(dev, "a.md")
    tap(dev, text="Move to…")
    assert dialog_title(dev) == "Move a.md to"
    assert find(dev, text="Home") is not None
    assert find(dev, text="Work") is None  # not its own folder
    tap(dev, text="Markor (top folder)")
    assert cat(dev, "a.md") == "A"


# --- tasks -------------------------------------------------------------------------------------


MARKOR_IDS = sorted(t for t in TEMPLATES if t.startswith("Markor"))
#: ours (the reference templates' oracle and idle runs are the contract test's)
OURS = sorted(mt.TEMPLATE_IDS)


def test_templates_cover_the_brief():
    assert set(mt.TEMPLATE_IDS) | set(mr.TEMPLATE_IDS) <= set(MARKOR_IDS)
    assert len(mr.TEMPLATE_IDS) == 43 and not set(mt.TEMPLATE_IDS) & set(mr.TEMPLATE_IDS)
    classes = [TEMPLATES[t] for t in (*mt.TEMPLATE_IDS, *mr.TEMPLATE_IDS)]
    assert sum(c.answer_task for c in classes) >= 2
    assert any(c.needs_scroll for c in classes)
    for c in classes:
        assert c.apps == (PKG,)
        a = c.generate_params(np.random.default_rng(3))
        b = c.generate_params(np.random.default_rng(3))
        assert a == b  # seeded
        goal = c(a).goal
        assert "{" not in goal and "Markor" in goal


@pytest.mark.parametrize("tid", OURS)
def test_task_is_not_solved_by_doing_nothing(tid):
    dev = SimDevice()
    for s in range(3):
        task = TEMPLATES[tid](TEMPLATES[tid].generate_params(np.random.default_rng(s)))
        task.setup(dev)
        assert task.is_successful(dev, None) == 0.0
        if task.answer_task:
            assert task.is_successful(dev, "I don't know") == 0.0
        task.teardown(dev)
        assert ls(dev) == []


def test_setup_clears_what_an_earlier_task_left():
    dev = SimDevice()
    seed(dev, {"stray.md": "left over", "Junk": None})
    cls = TEMPLATES["MarkorCreateFolder"]
    task = cls(cls.generate_params(np.random.default_rng(0)))
    task.setup(dev)
    assert sorted(ls(dev)) == sorted(task.params["noise"])


def test_scroll_task_target_starts_below_the_fold():
    dev = SimDevice()
    for s in range(20):
        cls = mt.MarkorEditNoteInLongList
        task = cls(cls.generate_params(np.random.default_rng(s)))
        task.setup(dev)
        open_markor(dev)
        assert find(dev, text=task.params["name"]) is None, s


def run_oracle(env, ag: OracleAgent, tid: str, seed_: int) -> tuple[float, list[str], int]:
    obs, info = env.reset(seed=seed_, options={"task": tid})
    ag.reset(env, obs, info)
    errors: list[str] = []
    steps = 0
    while True:
        obs, r, term, trunc, info = env.step(ag.act(obs, info))
        steps += 1
        if obs["last_action_error"]:
            errors.append(obs["last_action_error"])
        if term or trunc:
            return r, errors, steps


@pytest.mark.parametrize("tid", OURS)
def test_oracle_solves_every_template(tid):
    env = gym.make("antrap/AndroidSim-Text-v0")
    ag = OracleAgent()
    failures = []
    for s in range(20):
        r, errors, steps = run_oracle(env, ag, tid, s)
        if r != 1.0 or errors:
            failures.append((s, r, errors, steps))
    env.close()
    assert not failures, failures


def test_oracle_answer_is_graded_not_free():
    """A wrong answer to a question task scores 0 (the check can fail)."""
    env = gym.make("antrap/AndroidSim-Text-v0")
    env.reset(seed=1, options={"task": "MarkorCountNotesQuestion"})
    task = env.unwrapped.task
    assert task.is_successful(env.unwrapped.device, str(task.params["count"] + 1)) == 0.0
    assert task.is_successful(env.unwrapped.device, f"There are {task.params['count']}.") == 1.0
    env.close()


def _elements_when_answering(env, ag: OracleAgent, tid: str, seed_: int):
    obs, info = env.reset(seed=seed_, options={"task": tid})
    ag.reset(env, obs, info)
    shown, answer = None, None
    while True:
        action = ag.act(obs, info)
        if action["action_type"] == "answer":
            shown, answer = list(env.unwrapped.elements), action
        obs, r, term, trunc, info = env.step(action)
        if term or trunc:
            return r, answer, shown


def test_note_content_answer_is_on_screen_when_the_oracle_answers():
    env = gym.make("antrap/AndroidSim-Text-v0")
    ag = OracleAgent()
    for s in range(10):
        r, action, shown = _elements_when_answering(env, ag, "MarkorNoteContentQuestion", s)
        task = env.unwrapped.task
        text = task.params["notes"][task.params["name"]]
        assert r == 1.0 and shown is not None, s
        ed = next(e for e in shown if (e.resource_name or "") == EDITOR_RID)
        assert ed.text.strip() == text.strip() == action["text"].strip(), s
        assert any(e.text == task.params["name"] for e in shown)  # the right note is open
        # listing every note's text instead is graded 0
        assert task.is_successful(env.unwrapped.device, " ".join(task.params["notes"].values())) == 0
    env.close()


def test_note_count_answer_is_on_screen_when_the_oracle_answers():
    env = gym.make("antrap/AndroidSim-Text-v0")
    ag = OracleAgent()
    for s in range(10):
        r, action, shown = _elements_when_answering(env, ag, "MarkorCountNotesQuestion", s)
        p = env.unwrapped.task.params
        assert r == 1.0 and shown is not None, s
        assert any(e.text == p["folder"] and (e.resource_name or "").endswith("toolbar_title")
                   for e in shown)
        visible = {e.text for e in shown if e.text}
        assert set(p["inside"]) <= visible, s  # every note of the folder is on screen
        assert not set(p["elsewhere"]) & visible  # and nothing from elsewhere
        assert sum(1 for t in visible if t.endswith(".md")) == p["count"] == int(action["text"])
    env.close()


def test_screens_render(dev):
    seed(dev, {"Work": None, "a.md": "# Title\nbody"})
    open_markor(dev)
    frames = [dev.screenshot()]
    tap(dev, text="a.md")
    frames.append(dev.screenshot())
    for f in frames:
        assert f.shape == (2400, 1080, 3)
        assert f.std() > 5  # not a blank frame
