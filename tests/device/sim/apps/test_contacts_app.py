"""The Contacts app on the simulated phone, and its tasks.

UI flows go through the device's public interface (taps, keys, the element
list) and are checked through `content query`, as a task would on a real phone.
The oracle must solve every Contacts template on clean runs.
"""

from __future__ import annotations

import pickle
import re

import gymnasium as gym
import numpy as np
import pytest

import antrap_gym  # noqa: F401  (registers the envs)
import antrap_gym.tasks.contacts_tasks as ct
from antrap_gym.agents import OracleAgent
from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.apps.contacts import ContactsProvider
from antrap_gym.tasks.registry import TEMPLATES
from tests.screen import find, long_press, tap, texts, type_into

PKG = "com.google.android.contacts"
URI = "content://com.android.contacts"
CONTACT_TEMPLATES = sorted(t for t in TEMPLATES if t.startswith("Contacts"))
ROSTER = [
    ["Ada Lovelace", "+1 415-555-0101", "ada@example.com", False],
    ["Bruno Mars", "+1 212-555-0102", "", True],
    ["Chen Wei", "+1 617-555-0103", "chen.wei@example.com", False],
    ["Zara Quinn", "+1 305-555-0104", "zara@example.com", True],
]


# --- helpers -------------------------------------------------------------------------------------


def seed(dev: SimDevice, people: list[list]) -> None:
    ct.seed_contacts(dev, people)


def dialog_title(dev: SimDevice) -> str | None:
    e = next((e for e in dev.ui_elements() if (e.resource_name or "").endswith("alertTitle")), None)
    return e.text if e else None


def query(dev: SimDevice, path: str, projection: str) -> list[dict[str, str]]:
    res = dev.shell(f"content query --uri {URI}/{path} --projection {projection}")
    assert res.exit_code == 0, res.stderr
    return ct.parse_rows(res.stdout, projection.split(":"))


def contact_names(dev: SimDevice) -> list[str]:
    return [r["display_name"] for r in query(dev, "contacts", "_id:display_name:starred")]


def starred(dev: SimDevice, name: str) -> bool:
    rows = [r for r in query(dev, "contacts", "_id:display_name:starred") if r["display_name"] == name]
    assert len(rows) == 1
    return rows[0]["starred"] == "1"


def activity(dev: SimDevice) -> str:
    return dev.foreground()[1].rsplit(".", 1)[-1]


@pytest.fixture
def dev() -> SimDevice:
    d = SimDevice()
    seed(d, ROSTER)
    d.launch(PKG)
    return d


# --- the list --------------------------------------------------------------------------------------


def test_list_sorted_with_search_chips_and_fab(dev):
    shown = [n for n in texts(dev) if n in {p[0] for p in ROSTER}]
    assert shown == sorted(p[0] for p in ROSTER)
    assert find(dev, rid="open_search_bar_text_view").hint_text == "Search contacts"
    assert find(dev, desc="Create contact") is not None
    chips = [e for e in dev.ui_elements() if (e.class_name or "").endswith("Chip")]
    assert [c.text for c in chips[:2]] == ["All", "Favourites"]
    assert chips[0].is_checked


def test_empty_state():
    d = SimDevice()
    seed(d, [])
    d.launch(PKG)
    assert any("No contacts" in t for t in texts(d))
    assert find(d, desc="Create contact") is not None


def test_shell_seed_recipe_reads_back():
    d = SimDevice()
    ContactsProvider.of(d.phone).add("Old Person", "123")
    seed(d, ROSTER)
    phones = query(d, "data/phones", "display_name:data1")
    assert {(r["display_name"], r["data1"]) for r in phones} == {(p[0], p[1]) for p in ROSTER}
    emails = {r["display_name"] for r in query(d, "data/emails", "display_name:data1")}
    assert emails == {p[0] for p in ROSTER if p[2]}
    assert {r["display_name"]: r["starred"] for r in query(d, "contacts", "display_name:starred")} \
        == {p[0]: str(int(p[3])) for p in ROSTER}


def test_long_list_scrolls_vertically():
    d = SimDevice()
    rng = np.random.default_rng(7)
    people = ct.make_roster(rng, 20)
    seed(d, people)
    d.launch(PKG)
    last = max((p[0] for p in people), key=str.casefold)
    assert find(d, last) is None
    lst = find(d, rid="contact_list")
    assert lst.is_scrollable
    b = lst.bbox_pixels
    for _ in range(6):
        d.swipe(b.center[0], b.y_max - 100, b.center[0], b.y_min + 100, 400)
    assert find(d, last) is not None


def test_search_filters_as_you_type(dev):
    type_into(dev, "open_search_bar_text_view", "ch")
    names = set(texts(dev)) & {p[0] for p in ROSTER}
    assert names == {"Chen Wei"}
    dev.key("ENTER")  # the search action hides the keyboard and keeps the filter
    assert set(texts(dev)) & {p[0] for p in ROSTER} == {"Chen Wei"}
    dev.key("BACK")  # clears the search
    assert set(texts(dev)) & {p[0] for p in ROSTER} == {p[0] for p in ROSTER}
    type_into(dev, "open_search_bar_text_view", "305555")  # by phone digits
    assert set(texts(dev)) & {p[0] for p in ROSTER} == {"Zara Quinn"}
    type_into(dev, "open_search_bar_text_view", "xyz")
    assert any("No results" in t for t in texts(dev))


def test_chips_scroll_sideways_and_filter(dev):
    row = find(dev, rid="filter_chips")
    assert row.is_scrollable
    assert find(dev, "U-Z") is None  # past the right edge
    b = row.bbox_pixels
    dev.swipe(b.x_max - 60, b.center[1], b.x_min + 60, b.center[1], 400)
    dev.swipe(b.x_max - 60, b.center[1], b.x_min + 60, b.center[1], 400)
    assert find(dev, "U-Z") is not None
    tap(dev, "U-Z")
    assert set(texts(dev)) & {p[0] for p in ROSTER} == {"Zara Quinn"}
    dev.swipe(b.x_min + 60, b.center[1], b.x_max - 60, b.center[1], 400)
    dev.swipe(b.x_min + 60, b.center[1], b.x_max - 60, b.center[1], 400)
    tap(dev, "Favourites")
    assert set(texts(dev)) & {p[0] for p in ROSTER} == {"Bruno Mars", "Zara Quinn"}
    assert find(dev, "Favourites").is_checked


# --- create and edit ------------------------------------------------------------------------------------


def test_add_contact_via_editor(dev):
    tap(dev, desc="Create contact")
    assert activity(dev) == "ContactEditorActivity"
    type_into(dev, "first_name", "Grace")
    type_into(dev, "last_name", "Hopper")
    type_into(dev, "phone", "+1 202-555-0199")
    type_into(dev, "email", "grace@navy.mil")
    tap(dev, "Save")
    rows = query(dev, "data/phones", "display_name:data1")
    assert {"display_name": "Grace Hopper", "data1": "+1 202-555-0199"} in rows
    assert {"display_name": "Grace Hopper", "data1": "grace@navy.mil"} in \
        query(dev, "data/emails", "display_name:data1")
    assert activity(dev) == "QuickContactActivity"  # the new contact's details
    assert {"Grace Hopper", "+1 202-555-0199", "grace@navy.mil"} <= set(texts(dev))
    dev.key("BACK")
    assert "Grace Hopper" in texts(dev)


def test_the_phone_label_drop_down_labels_the_saved_number(dev):
    """The editor's label drop-down (a Spinner under the number, "Mobile" at first) opens
    the label choices; the chosen label is what the form shows and what Save stores
    (data2 = Phone.TYPE_WORK), and the legacy `content://contacts/phones` lists it."""
    tap(dev, desc="Create contact")
    spinner = find(dev, rid="phone_label")
    assert spinner.class_name == "android.widget.Spinner"
    assert (spinner.text, spinner.content_description) == ("Mobile", "Mobile Phone")
    type_into(dev, "first_name", "Grace")
    type_into(dev, "phone", "202-555-0199")
    tap(dev, rid="phone_label")
    assert dialog_title(dev) == "Label"
    assert {"Mobile", "Work", "Home", "Main", "Other"} <= set(texts(dev))
    tap(dev, "Work")
    spinner = find(dev, rid="phone_label")
    assert (spinner.text, spinner.content_description) == ("Work", "Work Phone")
    filled = find(dev, text="202-555-0199")
    assert filled.hint_text == "Phone"  # a filled field keeps its hint, as on Android
    tap(dev, "Save")
    rows = query(dev, "data/phones", "display_name:data1:data2")
    assert {"display_name": "Grace", "data1": "202-555-0199", "data2": "3"} in rows
    legacy = dev.shell("content query --uri content://contacts/phones/ "
                       "--projection display_name:number")
    assert "display_name=Grace, number=202-555-0199" in legacy.stdout
    assert "Work" in texts(dev)  # the details show the label


def test_the_legacy_contacts_authority_is_read_only(dev):
    res = dev.shell("content insert --uri content://contacts/phones --bind number:s:5")
    assert res.exit_code != 0 and "not supported" in res.stderr
    assert dev.shell("content query --uri content://contacts/people").exit_code != 0


def test_enter_moves_to_next_field_and_never_saves(dev):
    tap(dev, desc="Create contact")
    tap(dev, rid="first_name")
    dev.type_text("Linus")
    dev.key("ENTER")
    assert find(dev, rid="last_name").is_focused
    for _ in range(4):
        dev.key("ENTER")
    assert activity(dev) == "ContactEditorActivity"
    assert "Linus" not in " ".join(contact_names(dev))


def test_saving_empty_contact_shows_toast_and_saves_nothing(dev):
    before = contact_names(dev)
    tap(dev, desc="Create contact")
    tap(dev, "Save")
    assert activity(dev) == "ContactEditorActivity"
    assert dev.phone.wm.toast is not None and "empty" in dev.phone.wm.toast[0]
    assert contact_names(dev) == before


def test_edit_phone_number(dev):
    tap(dev, "Chen Wei")
    tap(dev, desc="Edit contact")
    assert find(dev, rid="phone").text == "+1 617-555-0103"
    tap(dev, rid="phone")
    dev.shell("input keycombination KEYCODE_CTRL_LEFT KEYCODE_A")
    dev.key("DEL")
    dev.type_text("617-555-0177")
    tap(dev, "Save")
    rows = [r for r in query(dev, "data/phones", "display_name:data1") if r["display_name"] == "Chen Wei"]
    assert rows == [{"display_name": "Chen Wei", "data1": "617-555-0177"}]
    assert activity(dev) == "QuickContactActivity"
    assert "617-555-0177" in texts(dev)


def test_discard_dialog_on_back_with_changes(dev):
    tap(dev, "Ada Lovelace")
    tap(dev, desc="Edit contact")
    type_into(dev, "last_name", " King")
    dev.key("BACK")  # hides the keyboard
    dev.key("BACK")
    assert dialog_title(dev) == "Discard changes?"
    tap(dev, "Cancel")
    assert activity(dev) == "ContactEditorActivity" and dialog_title(dev) is None
    assert find(dev, rid="last_name").text == "Lovelace King"
    tap(dev, desc="Navigate up")
    assert dialog_title(dev) == "Discard changes?"
    tap(dev, "Discard")
    assert activity(dev) == "QuickContactActivity"
    assert "Ada Lovelace" in contact_names(dev) and "Ada Lovelace King" not in contact_names(dev)


def test_back_without_changes_leaves_quietly(dev):
    tap(dev, "Ada Lovelace")
    tap(dev, desc="Edit contact")
    dev.key("BACK")
    assert dialog_title(dev) is None
    assert activity(dev) == "QuickContactActivity"


# --- details: favourite, delete ---------------------------------------------------------------


def test_details_show_phone_and_email(dev):
    tap(dev, "Ada Lovelace")
    assert activity(dev) == "QuickContactActivity"
    assert {"Ada Lovelace", "+1 415-555-0101", "ada@example.com"} <= set(texts(dev))


def test_star_button_toggles_favourite(dev):
    tap(dev, "Ada Lovelace")
    star = find(dev, desc="Add to favourites")
    assert star is not None and star.is_checkable and not star.is_checked
    dev.tap(*star.center)
    assert starred(dev, "Ada Lovelace")
    star = find(dev, desc="Remove from favourites")
    assert star is not None and star.is_checked
    dev.tap(*star.center)
    assert not starred(dev, "Ada Lovelace")
    assert find(dev, desc="Add to favourites") is not None


def test_delete_from_details_overflow_menu(dev):
    tap(dev, "Chen Wei")
    tap(dev, desc="More options")
    tap(dev, "Delete")
    assert dialog_title(dev) == "Delete this contact?"
    tap(dev, "Delete")
    assert "Chen Wei" not in contact_names(dev)
    assert activity(dev) == "PeopleActivity"
    assert "Chen Wei" not in texts(dev)


def test_long_press_menu_favourite_and_delete(dev):
    long_press(dev, "Ada Lovelace")
    assert {"Add to favourites", "Delete"} <= set(texts(dev))
    tap(dev, "Add to favourites")
    assert starred(dev, "Ada Lovelace")
    long_press(dev, "Ada Lovelace")
    assert "Remove from favourites" in texts(dev)
    tap(dev, "Delete")
    assert dialog_title(dev) == "Delete this contact?"
    tap(dev, "Cancel")
    assert "Ada Lovelace" in contact_names(dev)
    long_press(dev, "Ada Lovelace")
    tap(dev, "Delete")
    tap(dev, "Delete")
    assert "Ada Lovelace" not in contact_names(dev)
    assert "Ada Lovelace" not in texts(dev)


def test_state_survives_snapshot_mid_edit(dev):
    tap(dev, desc="Create contact")
    type_into(dev, "first_name", "Snap")
    snap = dev.snapshot()
    pickle.dumps(snap)
    d2 = SimDevice()
    d2.restore(snap)
    assert find(d2, rid="first_name").text == "Snap"
    assert activity(d2) == "ContactEditorActivity"


def test_dark_theme_screens_render(dev):
    dev.shell("settings put secure ui_night_mode 2")
    for step in (lambda: None, lambda: tap(dev, "Ada Lovelace"), lambda: tap(dev, desc="Edit contact")):
        step()
        frame = dev.screenshot()
        assert frame.shape == (2400, 1080, 3) and frame.mean() < 128


# --- tasks --------------------------------------------------------------------------------------------------


def test_templates_cover_the_brief():
    assert len(CONTACT_TEMPLATES) >= 7
    classes = [TEMPLATES[t] for t in CONTACT_TEMPLATES]
    assert sum(c.answer_task for c in classes) >= 2
    assert any(c.needs_scroll for c in classes)
    for c in classes:
        assert c.apps == (PKG,)
        rng1, rng2 = np.random.default_rng(3), np.random.default_rng(3)
        assert c.generate_params(rng1) == c.generate_params(rng2)  # seeded, deterministic


class CountingDevice:
    """A device that counts shell calls (set-up must stay a handful of them)."""

    def __init__(self, inner: SimDevice) -> None:
        self.inner = inner
        self.calls = 0

    def shell(self, cmd: str, timeout: float | None = None):
        self.calls += 1
        return self.inner.shell(cmd)


@pytest.mark.parametrize("tid", CONTACT_TEMPLATES)
def test_setup_is_shell_only_and_not_yet_solved(tid):
    cls = TEMPLATES[tid]
    task = cls(cls.generate_params(np.random.default_rng(0)))
    d = SimDevice()
    ContactsProvider.of(d.phone).add("Leftover Person", "555")
    counting = CountingDevice(d)
    task.setup(counting)
    assert counting.calls <= 5
    names = contact_names(d)
    assert "Leftover Person" not in names
    assert sorted(names) == sorted(p[0] for p in task.params.get("contacts", []))
    if cls.answer_task:
        assert task.is_successful(d, task.solution()[-1].text) == 1.0
        assert task.is_successful(d, "I don't know") == 0.0
        assert task.is_successful(d, None) == 0.0
    else:
        assert task.is_successful(d) == 0.0
    task.teardown(d)  # puts back the address book set-up replaced
    assert contact_names(d) == ["Leftover Person"]


@pytest.mark.parametrize("tid", [t for t in CONTACT_TEMPLATES if TEMPLATES[t].needs_scroll])
def test_scroll_targets_start_below_the_fold(tid):
    cls = TEMPLATES[tid]
    for s in range(5):
        task = cls(cls.generate_params(np.random.default_rng(s)))
        d = SimDevice()
        task.setup(d)
        d.launch(PKG)
        assert find(d, task.params["name"]) is None, (tid, s)


def test_wrong_contact_does_not_count():
    cls = TEMPLATES["ContactsDeleteContact"]
    task = cls(cls.generate_params(np.random.default_rng(1)))
    d = SimDevice()
    task.setup(d)
    other = next(p[0] for p in task.params["contacts"] if p[0] != task.params["name"])
    d.launch(PKG)
    long_press(d, other)
    tap(d, "Delete")
    tap(d, "Delete")
    assert task.is_successful(d) == 0.0


def run_oracle(env, agent, tid: str, seed: int) -> tuple[float, list[dict], list[str]]:
    obs, info = env.reset(seed=seed, options={"task": tid})
    agent.reset(env, obs, info)
    errors, trace = [], []
    r = 0.0
    while True:
        action = agent.act(obs, info)
        trace.append({"action": action, "elements": obs["ui_elements"]})
        obs, r, term, trunc, info = env.step(action)
        if obs["last_action_error"]:
            errors.append(obs["last_action_error"])
        if term or trunc:
            return r, trace, errors


@pytest.mark.parametrize("tid", CONTACT_TEMPLATES)
def test_oracle_solves_every_seed(tid):
    env = gym.make("antrap/AndroidSim-Text-v0")
    agent = OracleAgent()
    failures = []
    for seed in range(20):
        r, trace, errors = run_oracle(env, agent, tid, seed)
        if r != 1.0 or errors:
            failures.append((seed, r, errors, [t["action"] for t in trace]))
        if TEMPLATES[tid].answer_task:
            # the answer was on screen when the oracle gave it: the task is answerable from the UI
            step = next(t for t in trace if t["action"]["action_type"] == "answer")
            task = env.unwrapped.task
            shown = step["elements"]
            if task.answer_kind == "number":
                assert len(re.findall(r'Chip "Favourites" \{[^}]*checked', shown)) == 1
                names = [p[0] for p in task.params["contacts"] if p[3]]
                assert all(f'"{n}"' in shown for n in names)
                assert sum(f'"{p[0]}"' in shown for p in task.params["contacts"]) == len(names)
            else:
                assert f'"{task.expected()}"' in shown, (tid, seed)
    env.close()
    assert not failures, failures
