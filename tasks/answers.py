"""Checking an agent's answer to an information-retrieval task.

AndroidWorld grades answers by kind: strings after normalisation, numbers by
value, dates and times by what they denote. Every kind here also refuses an
answer that hedges by listing several candidates ("Priya Schmidt, Hiro
Fischer, Tara Rossi"; "30 seconds or 1 minute"): the expected value must be
the only value of its kind in the answer.

- ``text``: case, accents' composition, quotes, apostrophes, dashes and
  punctuation are normalised and words compared as a sequence; the expected
  words may sit inside a short sentence ("It is Hiro Fischer."), but the
  answer fails when it also contains a *distractor* (another candidate the
  task passes: the other contacts' names, the other notes' texts), when the
  expected value is one item of a list ("A, B", "A or B"), or when it buries
  the value in a long text.
- ``number``: every number in the answer (digits or small number words) must
  equal the expected one; "3" and "There are three." pass, "3 or 4" fails.
  Dotted versions ("8.1.0") compare part by part.
- ``phone``: phone numbers compared by digits (a missing country code is
  fine, a missing area code is not); every number in the answer must match.
- ``email``: addresses compared case-insensitively; exactly one address.
- ``duration``: "1 minute" = "60 seconds" = "one min"; every duration must match.
- ``time``: "15:34" = "3:34 PM" = "3:34pm"; every time must match.
- ``date``: "2023-10-15" = "October 15, 2023" = "15 Oct" = "10/15/2023" (US
  order, as the phone's en-US locale writes it); every date must match.
- ``datetime``: a date and a time together ("October 22 2023 14:30"); both must match.

`items_match` grades AndroidWorld's list answers (its information-retrieval tasks,
`proto_utils.check_agent_answer`): the answer is split on commas, there must be as
many items as expected values, and the items must match the values one to one
(order free). Text items match by AndroidWorld's fuzzy rule (case-insensitive
similarity >= 0.9) or after normalisation; numbers within a tolerance when one is set.

`reference_items_match` is AndroidWorld's rule itself, for grading as the reference
does (`--grading reference`): each item must parse as its type exactly (a number as
`float()` reads it, a date as "October 22 2023", a time as "14:30"), text items are only
fuzzy-matched (no normalisation), and every item must match *some* expected value (not
one to one: "Gym, Gym" answers "Gym" and "Yoga Class" if both are asked).
"""

from __future__ import annotations

import datetime as _dt
import difflib
import re
import unicodedata
from collections.abc import Iterable, Sequence

KINDS = ("text", "number", "phone", "email", "duration", "time", "date", "datetime")

def _wordlist(s: str) -> list[str]:
    return s.split()


#: words around the answer's value that a reasonable sentence may carry
MAX_EXTRA_WORDS = 12
#: words that do not make an enumeration when they follow "," / "or" ("A, I think")
FILLER = frozenset(_wordlist(
    "a an the it its is was are be this that these those i im me my we our you your he she they "
    "think believe guess suppose sure certain answer yes so here there called named just "
    "probably maybe perhaps only exactly"))
_CONJ = frozenset({"and", "or", "nor", "vs", "versus"})

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201b": "'", "\u2032": "'", "`": "'",
                         "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
                         "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-",
                         "\u2014": "-", "\u2212": "-", "\u00a0": " "})
_TOKEN = re.compile(r"[^\W_]+(?:[.:@+_-][^\W_]+)*|[,;|/&\n]")

_NUMBER_WORDS = {w: i for i, w in enumerate(_wordlist(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"))}
_NUMBER_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
                      "eighty": 80, "ninety": 90, "hundred": 100, "none": 0})
_WORD_RX = "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))
_NUMBER = re.compile(r"(?<![\w.:/])-?\d+(?:,\d{3})*(?:\.\d+)*(?![\w:/]|\.\d)"
                     rf"|\b(?:{_WORD_RX})\b")
_PHONE = re.compile(r"\+?\(?\d[\d ().-]{5,}\d")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_UNIT_S = {"second": 1, "seconds": 1, "sec": 1, "secs": 1, "s": 1,
           "minute": 60, "minutes": 60, "min": 60, "mins": 60, "m": 60,
           "hour": 3600, "hours": 3600, "hr": 3600, "hrs": 3600, "h": 3600}
_DURATION = re.compile(
    rf"(?<![\w.])(\d+(?:\.\d+)?|{_WORD_RX}|an?)\s*-?\s*"
    r"(seconds?|secs?|minutes?|mins?|hours?|hrs?|s|m|h)\b")
_TIME = re.compile(r"(?<![\w:])(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*([ap])\.?\s?m\b\.?"
                   r"|(?<![\w:])(\d{1,2}):(\d{2})(?::\d{2})?(?![\w:])|\b(noon|midnight)\b")
_MONTHS = {m: i + 1 for i, m in enumerate(_wordlist(
    "january february march april may june july august september october november december"))}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_MONTH_RX = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE = re.compile(
    r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)"
    r"|(?<!\d)(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?!\d)"
    rf"|\b({_MONTH_RX})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(\d{{4}}))?"
    rf"|(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RX})\b\.?(?:,?\s*(\d{{4}}))?")


def normalize_answer(s: str | None) -> str:
    """Casefolded, NFKC-composed, one kind of quote and dash, single spaces."""
    if s is None:
        return ""
    s = unicodedata.normalize("NFKC", str(s)).translate(_QUOTES).casefold()
    s = re.sub(r"[ \t\r\f\v]+", " ", s)
    s = re.sub(r" *\n+ *", "\n", s)
    return s.strip(" \n.!?\"'")


def _tokens(s: str) -> list[str]:
    """Words and list separators of a normalised string (apostrophes dropped)."""
    return _TOKEN.findall(normalize_answer(s).replace("'", ""))


def _is_sep(tok: str) -> bool:
    return tok in ",;|/&\n" or tok in _CONJ


def _words(s: str) -> list[str]:
    return [t for t in _tokens(s) if t not in ",;|/&\n"]


def _find(seq: Sequence[str], sub: Sequence[str]) -> list[int]:
    n = len(sub)
    return [i for i in range(len(seq) - n + 1) if list(seq[i:i + n]) == list(sub)]


def _text_matches(answer: str, expected: str, distractors: Iterable[str]) -> bool:
    toks = _tokens(answer)
    word_at = [i for i, t in enumerate(toks) if t not in ",;|/&\n"]  # token index of each word
    words = [toks[i] for i in word_at]
    want = _words(expected)
    if not want:
        return False
    starts = _find(words, want)
    if not starts:
        return False
    covered = {k for s in starts for k in range(s, s + len(want))}
    for d in distractors:
        dw = _words(d)
        if not dw or dw == want:
            continue
        for s in _find(words, dw):
            if not set(range(s, s + len(dw))) <= covered:
                return False  # another candidate is named too
    if len(words) - len(covered) > MAX_EXTRA_WORDS:
        return False
    covered_toks = {word_at[k] for k in covered}
    for s in starts:
        first, last = word_at[s], word_at[s + len(want) - 1]
        # "X, <expected>" / "<expected> or X": the value is one item of a list
        for sep, nxt in ((first - 1, first - 2), (last + 1, last + 2)):
            if 0 <= nxt < len(toks) and sep not in covered_toks and _is_sep(toks[sep]):
                other = toks[nxt]
                if nxt not in covered_toks and not _is_sep(other) and other not in FILLER:
                    return False
    return True


def _num_value(tok: str) -> tuple:
    tok = tok.replace(",", "")
    if tok in _NUMBER_WORDS:
        return (float(_NUMBER_WORDS[tok]),)
    if "." in tok and not tok.startswith("-"):  # part by part: 8.1.0 == 8.1, 13.0 == 13
        parts = [int(p) for p in tok.split(".")]
        while len(parts) > 1 and parts[-1] == 0:
            parts.pop()
        return ("v", *parts) if len(parts) > 1 else (float(parts[0]),)
    return (float(tok),)


def _numbers(s: str) -> set[tuple]:
    return {_num_value(m.group(0)) for m in _NUMBER.finditer(normalize_answer(s))}


def _phones(s: str) -> list[str]:
    out = []
    for m in _PHONE.finditer(s):
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) >= 7:
            out.append(digits)
    return out


def _same_phone(a: str, b: str) -> bool:
    if a == b:
        return True
    return min(len(a), len(b)) >= 10 and a[-10:] == b[-10:]


def _durations(s: str) -> list[float]:
    out = []
    for m in _DURATION.finditer(normalize_answer(s)):
        n, unit = m.group(1), m.group(2)
        value = 1.0 if n in ("a", "an") else float(_NUMBER_WORDS.get(n, n))
        out.append(value * _UNIT_S[unit])
    return out


def _times(s: str) -> list[int]:
    out = []
    for m in _TIME.finditer(normalize_answer(s)):
        if m.group(6):
            out.append(12 * 60 if m.group(6) == "noon" else 0)
            continue
        if m.group(1) is not None:
            h, mi, ampm = int(m.group(1)), int(m.group(2) or 0), m.group(3)
            if not 1 <= h <= 12:
                continue
            h = h % 12 + (12 if ampm == "p" else 0)
        else:
            h, mi = int(m.group(4)), int(m.group(5))
        if h < 24 and mi < 60:
            out.append(h * 60 + mi)
    return out


def _dates(s: str) -> list[tuple[int | None, int, int]]:
    out: list[tuple[int | None, int, int]] = []
    for m in _DATE.finditer(normalize_answer(s)):
        g = m.groups()
        if g[0]:
            y, mo, d = int(g[0]), int(g[1]), int(g[2])
        elif g[3]:
            mo, d, y = int(g[3]), int(g[4]), int(g[5])
            y += 2000 if y < 100 else 0
        elif g[6]:
            mo, d, y = _MONTHS[g[6]], int(g[7]), int(g[8]) if g[8] else None
        else:
            d, mo, y = int(g[9]), _MONTHS[g[10]], int(g[11]) if g[11] else None
        try:
            _dt.date(y or 2000, mo, d)
        except ValueError:
            continue
        out.append((y, mo, d))
    return out


def _all_equal(found: Sequence, want: Sequence, same=lambda a, b: a == b) -> bool:
    """Something was found, the expected value is unambiguous, and every value found is it."""
    return bool(found) and len(want) == 1 and all(same(f, want[0]) for f in found)


def answer_matches(answer: str | None, expected: str | Sequence[str], kind: str = "text",
                   distractors: Iterable[str] = ()) -> bool:
    """Whether `answer` gives the expected value (any of them, when several are
    acceptable) and no other value of its kind. `distractors` are the other
    candidates the question could be confused with (text answers)."""
    if kind not in KINDS:
        raise ValueError(f"unknown answer kind {kind!r}; one of {KINDS}")
    if answer is None or not str(answer).strip():
        return False
    options = [expected] if isinstance(expected, str) else [str(e) for e in expected]
    answer = str(answer)
    if kind == "text":
        others = [d for d in distractors if normalize_answer(d) not in map(normalize_answer, options)]
        return any(_text_matches(answer, e, others) for e in options)
    for exp in options:
        if kind == "number":
            found, want = _numbers(answer), _numbers(exp)
            ok = len(found) == 1 and found == want
        elif kind == "phone":
            ok = _all_equal(_phones(answer), _phones(exp), _same_phone)
        elif kind == "email":
            found_e = {e.casefold().rstrip(".") for e in _EMAIL.findall(answer)}
            ok = found_e == {e.casefold() for e in _EMAIL.findall(exp)} and len(found_e) == 1
        elif kind == "duration":
            ok = _all_equal(_durations(answer), _durations(exp))
        elif kind == "time":
            ok = _all_equal(_times(answer), _times(exp))
        elif kind == "date":
            ok = _all_equal(_dates(answer), _dates(exp), _same_date)
        else:  # datetime
            ok = (_all_equal(_dates(answer), _dates(exp), _same_date)
                  and _all_equal(_times(answer), _times(exp)))
        if ok:
            return True
    return False


def _same_date(found: tuple, want: tuple) -> bool:
    return found[1:] == want[1:] and found[0] in (None, want[0])


_FLOAT = re.compile(r"-?\d+(?:\.\d+)?")
_DAY_COMMA_YEAR = re.compile(r"([A-Za-z]+\.? \d{1,2}), (\d{4})")
#: AndroidWorld's fuzzy string match: case-insensitive difflib ratio at least this
FUZZY_ITEM = 0.9


def _item_matches(item: str, expected: str, kind: str, tolerance: float | None) -> bool:
    if kind == "text":
        a, b = normalize_answer(item), normalize_answer(expected)
        return bool(a) and (a == b or difflib.SequenceMatcher(None, a, b).ratio() >= FUZZY_ITEM)
    if kind == "number" and tolerance is not None:
        found, want = _FLOAT.findall(item.replace(",", "")), _FLOAT.findall(expected)
        return len(found) == 1 and len(want) == 1 and abs(float(found[0]) - float(want[0])) < tolerance
    return answer_matches(item, expected, kind)


def items_match(answer: str | None, expected: Sequence[str], kind: str = "text",
                tolerance: float | None = None) -> bool:
    """AndroidWorld's list answer: comma-separated items, as many as `expected`, each
    matching a different expected value (in any order)."""
    if kind not in KINDS:
        raise ValueError(f"unknown answer kind {kind!r}; one of {KINDS}")
    if answer is None or not str(answer).strip() or not expected:
        return False
    text = str(answer)
    if kind in ("date", "datetime"):  # "October 22, 2023" is one date, not two items
        text = _DAY_COMMA_YEAR.sub(r"\1 \2", text)
    items = [i.strip() for i in text.split(",")]
    if len(items) != len(expected):
        return False
    want = [str(e) for e in expected]
    # one-to-one assignment (lists are short): try each item against the values left
    def assign(i: int, left: tuple[int, ...]) -> bool:
        if i == len(items):
            return True
        return any(_item_matches(items[i], want[j], kind, tolerance)
                   and assign(i + 1, left[:k] + left[k + 1:]) for k, j in enumerate(left))
    return assign(0, tuple(range(len(want))))


#: AndroidWorld's formats for its typed answers (`datetime_utils.DATE_FORMAT` and '%H:%M')
REFERENCE_FORMATS = {"date": "%B %d %Y", "time": "%H:%M", "datetime": "%B %d %Y %H:%M"}


def _reference_value(text: str, kind: str) -> object:
    """An item as AndroidWorld casts it (ValueError when it does not parse)."""
    if kind == "text":
        return text
    if kind == "number":
        return float(text)
    if kind in REFERENCE_FORMATS:
        return _dt.datetime.strptime(text, REFERENCE_FORMATS[kind])
    raise ValueError(f"AndroidWorld has no rule for {kind!r} answers")


def _reference_fuzzy(a: str, b: str) -> bool:
    """AndroidWorld's `fuzzy_match`: difflib ratio of the lower-cased strings >= 0.9."""
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio() >= FUZZY_ITEM


def reference_items_match(answer: str | None, expected: Sequence[str], kind: str = "text",
                          tolerance: float | None = None) -> bool:
    """AndroidWorld's `check_agent_answer` as it is: the answer split on commas and each
    item stripped, as many items as expected values, every item cast to its kind (one that
    does not parse fails the answer) and matching some expected value: text by the fuzzy
    rule alone, numbers equal or within `tolerance`, dates and times equal."""
    if kind not in KINDS:
        raise ValueError(f"unknown answer kind {kind!r}; one of {KINDS}")
    if answer is None or not str(answer) or not expected:
        return False
    try:
        items = [_reference_value(i.strip(), kind) for i in str(answer).split(",")]
        want = [_reference_value(str(e).strip(), kind) for e in expected]
    except ValueError:
        return False
    if len(items) != len(want):
        return False
    if kind == "text":
        same = _reference_fuzzy
    elif kind == "number" and tolerance is not None:
        def same(x, y):
            return abs(x - y) < tolerance
    else:
        def same(x, y):
            return x == y
    return all(any(same(x, y) for y in want) for x in items)
