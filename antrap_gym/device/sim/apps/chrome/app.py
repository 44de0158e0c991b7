"""Chrome as the phone installs it: package, launcher entry, intents, preferences.

`am start -n com.android.chrome/com.google.android.apps.chrome.Main -d URI` (the
launcher alias) and a VIEW of an HTML file or an http(s) URL (Files' "Open with",
`am start -a android.intent.action.VIEW -d URI -t text/html`) open the URI in a new
tab. Its preferences remember the first-run screens; `pm clear` forgets them, and
a force-stop forgets the tabs (the phone does not save Chrome's tab state).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import Activity, App
from antrap_gym.device.sim.apps.chrome.browser import PKG, ChromePrefs, ChromeTabbedActivity
from antrap_gym.device.sim.intents import ACTION_VIEW, IntentFilter
from antrap_gym.device.sim.storage.permissions import POST_NOTIFICATIONS

if TYPE_CHECKING:
    pass

#: the launcher's activity alias; it starts the tabbed activity
MAIN_ALIAS = "com.google.android.apps.chrome.Main"


class Chrome(App):
    package = PKG
    label = "Chrome"
    version = "120.0.6099.230"
    icon_color = (66, 133, 244)
    main = ChromeTabbedActivity
    activities = ()
    intent_filters = (
        IntentFilter(actions=(ACTION_VIEW,), mime_types=("text/html", "text/plain",
                                                          "application/xhtml+xml"),
                     schemes=("file", "content", "http", "https")),
        IntentFilter(actions=(ACTION_VIEW,), schemes=("http", "https")),
    )
    storage = (ChromePrefs,)
    #: Android 13's notification permission: the first run asks for it unless granted
    permissions = (POST_NOTIFICATIONS,)

    @classmethod
    def activity_named(cls, name: str) -> type[Activity] | None:
        if name in (MAIN_ALIAS, ".Main", "org.chromium.chrome.browser.ChromeTabbedActivity",
                    ".ChromeTabbedActivity"):
            return ChromeTabbedActivity
        return super().activity_named(name)
