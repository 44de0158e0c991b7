"""Answer checking for information-retrieval tasks: fair to phrasings, strict on hedging."""

from __future__ import annotations

import numpy as np
import pytest

from antrap_gym.tasks import TEMPLATES, answer_matches
from antrap_gym.tasks.apps.settings import TIMEOUTS

NAMES = ["Priya Schmidt", "Hiro Fischer", "Tara Rossi", "Hiro Fischer-Lang"]


@pytest.mark.parametrize("answer", [
    "Hiro Fischer", "hiro fischer", "  Hiro   Fischer. ", "It is Hiro Fischer.",
    "The contact is Hiro Fischer", "Answer: \u201cHiro Fischer\u201d", "HIRO FISCHER!",
    "It's Hiro Fischer, I think.",
])
def test_text_accepts_reasonable_phrasings(answer):
    assert answer_matches(answer, "Hiro Fischer", "text", NAMES)


@pytest.mark.parametrize("answer", [
    "Priya Schmidt, Hiro Fischer, Tara Rossi",  # the whole roster
    "Hiro Fischer or Tara Rossi",
    "Hiro Fischer, Tara Rossi",
    "Tara Rossi and Hiro Fischer",
    "Hiro",  # not the full name
    "Hiro Fischer-Lang",  # someone else whose name contains the answer
    "Fischer Hiro",
    "I don't know",
    "",
    "The person you are looking for, according to the contacts list that I have checked, "
    "is most likely Hiro Fischer",  # the value buried in a long text
])
def test_text_rejects_enumerations_and_near_misses(answer):
    assert not answer_matches(answer, "Hiro Fischer", "text", NAMES)


def test_text_rejects_lists_even_without_distractors():
    assert not answer_matches("Priya Schmidt, Hiro Fischer, Tara Rossi", "Hiro Fischer")
    assert not answer_matches("Hiro Fischer / Tara Rossi", "Hiro Fischer")
    assert answer_matches("Hiro Fischer", "Hiro Fischer")


def test_text_normalises_punctuation_apostrophes_and_dashes():
    assert answer_matches("Mias Phone", "Mia's Phone")
    assert answer_matches("mia\u2019s phone", "Mia's Phone")
    assert answer_matches("The note says: Buy milk, eggs and sourdough bread.",
                          "Buy milk, eggs and sourdough bread.",
                          distractors=["Call the dentist on Monday at 10am."])
    assert not answer_matches("Buy milk, eggs and sourdough bread. Call the dentist on Monday at 10am.",
                              "Buy milk, eggs and sourdough bread.",
                              distractors=["Call the dentist on Monday at 10am."])
    assert answer_matches("The build number is TQ3A.230805.001", "TQ3A.230805.001")
    assert not answer_matches("TQ3A.230805.002", "TQ3A.230805.001")


@pytest.mark.parametrize("answer, ok", [
    ("3", True), ("There are 3.", True), ("three", True), ("3 notes", True), ("3.0", True),
    ("There are three favourites (3).", True),
    ("3 or 4", False), ("4", False), ("2, 3, 4", False), ("33", False), ("none", False),
    ("I count 3 notes in 2 folders", False), ("", False),
])
def test_number(answer, ok):
    assert answer_matches(answer, "3", "number") is ok


def test_number_versions():
    assert answer_matches("Android 13", "13", "number")
    assert answer_matches("8.1", "8.1.0", "number")
    assert not answer_matches("Android 13 (API 33)", "13", "number")
    assert not answer_matches("12", "13", "number")


@pytest.mark.parametrize("answer, ok", [
    ("+1 415-555-0101", True), ("(415) 555-0101", True), ("4155550101", True),
    ("Her number is +1 415 555 0101.", True),
    ("555-0101", False),  # no area code
    ("+1 415-555-0101 or +1 212-555-0102", False),
    ("+1 415-555-0101, +1 212-555-0102", False),
    ("+1 212-555-0102", False),
])
def test_phone(answer, ok):
    assert answer_matches(answer, "+1 415-555-0101", "phone") is ok


def test_email():
    assert answer_matches("Ada.Lovelace@Example.com", "ada.lovelace@example.com", "email")
    assert answer_matches("It is ada.lovelace@example.com.", "ada.lovelace@example.com", "email")
    assert not answer_matches("ada.lovelace@example.com or ada@example.com",
                              "ada.lovelace@example.com", "email")
    assert not answer_matches("ada.lovelace@example.org", "ada.lovelace@example.com", "email")


@pytest.mark.parametrize("answer, ok", [
    ("1 minute", True), ("One minute", True), ("60 seconds", True), ("a minute", True),
    ("After 1 minute of inactivity", True), ("1 min", True),
    ("10 minutes", False), ("30 seconds", False), ("30 seconds, 1 minute", False),
    (", ".join(TIMEOUTS), False), ("1", False),
])
def test_duration(answer, ok):
    assert answer_matches(answer, "1 minute", "duration") is ok


def test_time_and_date():
    for a in ("15:34", "3:34 PM", "3:34pm", "It is 3:34 p.m."):
        assert answer_matches(a, "15:34", "time"), a
    for a in ("3:34 AM", "15:35", "3:34 or 4:34 pm", "15"):
        assert not answer_matches(a, "15:34", "time"), a
    for a in ("2023-10-15", "October 15, 2023", "Sunday, Oct 15", "15 October 2023", "10/15/2023",
              "the 15th of October"):
        assert answer_matches(a, "2023-10-15", "date"), a
    for a in ("October 16, 2023", "2022-10-15", "Oct 15 or Oct 16", "15/10/2023"):
        assert not answer_matches(a, "2023-10-15", "date"), a


def test_unknown_kind_is_a_bug_not_a_silent_zero():
    with pytest.raises(ValueError):
        answer_matches("x", "x", "colour")


def _answer_tasks():
    return sorted(t for t, c in TEMPLATES.items() if c.answer_task)


@pytest.mark.parametrize("tid", _answer_tasks())
def test_every_question_refuses_a_list_of_all_candidates(tid):
    """For every answer template and a few seeds: the oracle's answer scores 1, an
    answer listing the other candidates next to it scores 0."""
    from antrap_gym.device.sim import SimDevice

    cls = TEMPLATES[tid]
    for s in range(3):
        task = cls(cls.generate_params(np.random.default_rng(s)))
        dev = SimDevice()
        task.setup(dev)
        right = task.solution()[-1].text
        assert task.is_successful(dev, right) == 1.0, (tid, s, right)
        if not task.answer_check.items:  # AndroidWorld's list answers are the bare items
            assert task.is_successful(dev, f"It is {right}.") == 1.0, (tid, s)
        others = _candidates(task, right)
        assert others, tid
        listed = ", ".join([*others[:3], right, *others[3:6]])
        assert task.is_successful(dev, listed) == 0.0, (tid, s, listed)


def _candidates(task, right: str) -> list[str]:
    """Other plausible values of the same kind as the right answer."""
    p = task.params
    kind = getattr(task, "answer_kind", "text")
    if kind == "number":
        n = float(right)
        return [str(int(n + d)) for d in (1, 2, -1)]
    if "contacts" in p:
        col = {"phone": 1, "email": 2}.get(kind, 0)
        return [c[col] for c in p["contacts"] if c[col] and c[col] != right]
    if "notes" in p:
        return [t for t in p["notes"].values() if t != right]
    if kind == "duration":
        return [t for t in TIMEOUTS if t != right]
    if hasattr(task, "distractors") and task.distractors():
        return task.distractors()
    return ["TQ3A.230805.002", "UQ1A.240105.004"]
