"""Word tables the traps draw on: antonyms, destructive labels, pop-up content."""

from __future__ import annotations

from antrap_gym.tasks.labels import DESTRUCTIVE_WORDS, is_destructive  # noqa: F401  (shared with the solver)

#: label -> its opposite (both directions are used), at least 30 pairs
ANTONYM_PAIRS: tuple[tuple[str, str], ...] = (
    ("On", "Off"), ("Save", "Delete"), ("Allow", "Deny"), ("Yes", "No"), ("OK", "Cancel"),
    ("Open", "Close"), ("Show", "Hide"), ("Enable", "Disable"), ("Enabled", "Disabled"),
    ("Start", "Stop"), ("Add", "Remove"), ("Accept", "Decline"), ("Connect", "Disconnect"),
    ("Lock", "Unlock"), ("Mute", "Unmute"), ("Follow", "Unfollow"), ("Subscribe", "Unsubscribe"),
    ("Next", "Previous"), ("Forward", "Back"), ("Up", "Down"), ("Left", "Right"),
    ("Increase", "Decrease"), ("Maximum", "Minimum"), ("Expand", "Collapse"),
    ("Sign in", "Sign out"), ("Log in", "Log out"), ("Download", "Upload"), ("Import", "Export"),
    ("Play", "Pause"), ("Light", "Dark"), ("Create", "Discard"), ("Done", "Undo"),
    ("Confirm", "Reject"), ("Agree", "Disagree"), ("Keep", "Discard"), ("Public", "Private"),
    ("Online", "Offline"), ("Visible", "Hidden"), ("Edit", "View"), ("Favourites", "All"),
    ("Create contact", "Delete contact"), ("Add to favourites", "Remove from favourites"),
    ("Connected", "Disconnected"), ("Use location", "Stop location"),
)
ANTONYMS: dict[str, str] = {}
for _a, _b in ANTONYM_PAIRS:
    ANTONYMS.setdefault(_a.casefold(), _b)
    ANTONYMS.setdefault(_b.casefold(), _a)


def antonym(label: str | None) -> str | None:
    """The opposite of a whole label, keeping its capitalisation style."""
    if not label:
        return None
    opp = ANTONYMS.get(label.strip().casefold())
    if opp is None:
        return None
    if label.isupper():
        return opp.upper()
    if label[:1].islower():
        return opp.lower()
    return opp


# --- pop-up content (external interruption) -----------------------------------------------

PERMISSIONS = (
    "access this device's location",
    "send you notifications",
    "access your contacts",
    "take pictures and record video",
    "access photos and media on your device",
    "record audio",
    "access your calendar",
    "find, connect to, and determine the relative position of nearby devices",
)
PERMISSION_BUTTONS = (
    (("While using the app", "accept"), ("Only this time", "accept"), ("Don't allow", "deny")),
    (("Allow", "accept"), ("Don't allow", "deny")),
)
DIALOGS = (
    ("Rate {app}", "If you enjoy using {app}, would you mind taking a moment to rate it?",
     (("Cancel", "dismiss"), ("OK", "accept"))),
    ("Update available", "A newer version of {app} is available. Update now?",
     (("Cancel", "dismiss"), ("OK", "accept"))),
    ("Battery saver", "Your battery is at 15%. Turn on Battery Saver?",
     (("Cancel", "dismiss"), ("OK", "accept"))),
    ("Sync paused", "{app} couldn't sync your data. Try again later.",
     (("OK", "dismiss"),)),
    ("Back up {app}?", "Back up your {app} data to your Google Account.",
     (("Cancel", "dismiss"), ("OK", "accept"))),
    ("Wi-Fi network available", "Connect to \"Cafe Free WiFi\"?",
     (("Cancel", "dismiss"), ("OK", "accept"))),
)
BANNERS = (
    ("Messages • now", "Alex: are we still on for tonight?"),
    ("Gmail • now", "Your order has shipped"),
    ("Calendar • in 10 min", "Team sync, Room 4"),
    ("System update", "An update is ready to install"),
    ("{app}", "Tip: you can search from the top bar"),
    ("Photos • now", "Your memories from last year"),
    ("Weather • now", "Rain expected in 30 minutes"),
)
ADS = (
    ("Summer Sale: 50% off", "Shop the best deals of the season before they're gone. "
     "Free delivery on your first order."),
    ("Try Premium free", "Unlock every feature of {app} with a 30-day free trial. "
     "Cancel anytime."),
    ("New game: Tile Quest", "Match, merge and master 500 levels. Download now, it's free!"),
    ("Learn a language", "15 minutes a day is all it takes. Start your first lesson today."),
    ("Upgrade your phone", "Trade in your old device and save up to $400."),
)
