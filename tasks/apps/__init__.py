"""Per-app task adapters: each app's seeded data, set-up recipes and readers over the
shell, its rows for the check library, and the screens and fields its solutions name.

`ADAPTERS` maps each package to its adapter; an adapter's `state(device)` is what the
template contract compares before set-up and after tear-down.
"""

from antrap_gym.tasks.apps import (
    audio_recorder,
    broccoli,
    calendar,
    camera,
    chrome,
    clock,
    contacts,
    dialer,
    expense,
    files,
    gallery,
    joplin,
    markor,
    opentracks,
    osmand,
    retro_music,
    settings,
    simple_draw,
    sms,
    tasks_org,
    vlc,
)

ADAPTERS = {m.PKG: m for m in (contacts, markor, settings, calendar, sms, expense, broccoli,
                                tasks_org, joplin, opentracks, gallery, files, retro_music, vlc,
                                clock, camera, audio_recorder, dialer, osmand, simple_draw, chrome)}

__all__ = ["ADAPTERS", "audio_recorder", "broccoli", "calendar", "camera", "chrome", "clock", "contacts",
           "dialer", "expense", "files", "gallery", "joplin",
           "markor", "opentracks", "osmand", "retro_music", "settings", "simple_draw", "sms",
           "tasks_org", "vlc"]
