"""First-run screens: a factory phone is past them (as AndroidWorld's set-up leaves the
apps); `pm clear` brings an app's back; going through them once is remembered over a
force-stop; `pm grant` (what a task's set-up can do through the shell) skips a prompt."""

from __future__ import annotations

import pytest

from antrap_gym.device.sim import SimDevice

CONTACTS = "com.google.android.contacts"
MARKOR = "net.gsantner.markor"
CALENDAR = "com.simplemobiletools.calendar.pro"
TRACKS = "de.dennisguse.opentracks"
GALLERY = "com.simplemobiletools.gallery.pro"
CONTROLLER = "com.google.android.permissioncontroller"
NOTIFY = "android.permission.POST_NOTIFICATIONS"
ALL_FILES = "android.permission.MANAGE_EXTERNAL_STORAGE"


def labels(d: SimDevice) -> list[str]:
    return [e.text or e.content_description for e in d.ui_elements()
            if e.text or e.content_description]


def tap_label(d: SimDevice, label: str) -> None:
    """Tap the first element whose text or description is `label`."""
    el = next((e for e in d.ui_elements() if label in (e.text, e.content_description)), None)
    assert el is not None, (label, labels(d))
    d.tap(*el.center)


def relaunch(d: SimDevice, pkg: str) -> None:
    d.shell(f"am force-stop {pkg}")
    d.launch(pkg)


def granted(d: SimDevice, pkg: str, perm: str) -> bool:
    return f"{perm}: granted=true" in d.shell(f"dumpsys package {pkg}").stdout


@pytest.fixture
def dev() -> SimDevice:
    return SimDevice()


@pytest.mark.parametrize("pkg", [CONTACTS, MARKOR, CALENDAR, TRACKS, GALLERY])
def test_a_factory_phone_is_past_every_first_run(dev, pkg):
    dev.launch(pkg)
    assert dev.foreground()[0] == pkg and not dev.foreground()[1].endswith("IntroActivity")
    assert not any(e.resource_name and "alertTitle" in e.resource_name for e in dev.ui_elements())


def test_contacts_offers_backup_then_asks_for_notifications_once(dev):
    dev.shell(f"pm clear {CONTACTS}")
    dev.launch(CONTACTS)
    assert labels(dev) == ["Back up & organize your contacts with Google", "Skip"]
    tap_label(dev, "Skip")
    assert dev.foreground()[0] == CONTROLLER
    assert labels(dev)[0] == "Allow Contacts to send you notifications?"
    tap_label(dev, "Don't allow")
    assert dev.foreground()[0] == CONTACTS and "Favourites" in labels(dev)
    relaunch(dev, CONTACTS)
    assert dev.foreground()[0] == CONTACTS and "Favourites" in labels(dev)
    assert not granted(dev, CONTACTS, NOTIFY)


def test_contacts_skipped_page_stays_skipped_when_the_prompt_is_left_open(dev):
    dev.shell(f"pm clear {CONTACTS}")
    dev.launch(CONTACTS)
    tap_label(dev, "Skip")
    relaunch(dev, CONTACTS)   # the prompt was not answered: it comes back, the page does not
    assert labels(dev)[0] == "Allow Contacts to send you notifications?"


def test_markor_intro_then_storage_access(dev):
    dev.shell(f"pm clear {MARKOR}")
    dev.launch(MARKOR)
    assert dev.foreground() == (MARKOR, f"{MARKOR}.activity.IntroActivity")
    titles = [labels(dev)[0]]
    for _ in range(4):
        tap_label(dev, "NEXT")
        titles.append(labels(dev)[0])
    assert titles == ["Main View", "View", "Share -> Markor", "ToDo", "QuickNote"]
    tap_label(dev, "DONE")
    assert dev.foreground()[1].endswith(".activity.MainActivity")
    assert "Storage permission required to read and write files" in labels(dev)
    tap_label(dev, "OK")
    assert dev.foreground()[0] == "com.android.settings"
    assert "Allow access to manage all files" in labels(dev)
    switch = next(e for e in dev.ui_elements() if e.class_name.endswith("Switch"))
    dev.tap(*switch.center)
    dev.key("BACK")
    assert dev.foreground()[0] == MARKOR and granted(dev, MARKOR, ALL_FILES)
    relaunch(dev, MARKOR)
    assert dev.foreground()[1].endswith(".activity.MainActivity") and "Markor" in labels(dev)
    assert "net.gsantner.markor.activity.IntroActivitywas_shown" in dev.shell(
        f"cat /data/data/{MARKOR}/shared_prefs/{MARKOR}_preferences.xml").stdout


def test_markor_intro_left_on_its_first_page_comes_back(dev):
    dev.shell(f"pm clear {MARKOR}")
    dev.launch(MARKOR)
    tap_label(dev, "NEXT")
    dev.key("BACK")          # to the first page
    assert labels(dev)[0] == "Main View"
    dev.key("BACK")          # out of the intro, undone
    relaunch(dev, MARKOR)
    assert dev.foreground()[1].endswith("IntroActivity")


def test_markor_without_access_asks_again_on_the_next_start(dev):
    dev.shell(f"pm revoke {MARKOR} {ALL_FILES}")
    dev.launch(MARKOR)
    assert "Storage permission required to read and write files" in labels(dev)
    tap_label(dev, "OK")
    dev.key("BACK")          # the switch left off
    assert dev.foreground()[0] == MARKOR and "OK" not in labels(dev)
    relaunch(dev, MARKOR)
    assert "Storage permission required to read and write files" in labels(dev)
    dev.shell(f"pm grant {MARKOR} {ALL_FILES}")
    relaunch(dev, MARKOR)
    assert "Storage permission required to read and write files" not in labels(dev)


def test_calendar_asks_for_notifications_unless_granted_through_the_shell(dev):
    dev.shell(f"pm clear {CALENDAR}")
    dev.launch(CALENDAR)
    assert labels(dev)[0] == "Allow Simple Calendar Pro to send you notifications?"
    tap_label(dev, "Allow")
    relaunch(dev, CALENDAR)
    assert dev.foreground()[0] == CALENDAR and granted(dev, CALENDAR, NOTIFY)
    dev.shell(f"pm clear {CALENDAR}")
    dev.shell(f"pm grant {CALENDAR} {NOTIFY}")   # AndroidWorld's set-up
    dev.launch(CALENDAR)
    assert dev.foreground()[0] == CALENDAR and "Go to today" in labels(dev)


def test_opentracks_asks_location_notifications_and_nearby_devices(dev):
    dev.shell(f"pm clear {TRACKS}")
    dev.launch(TRACKS)
    asked = []
    for answer in ("While using the app", "Don't allow", "Allow"):
        assert dev.foreground()[0] == CONTROLLER
        asked.append(labels(dev)[0])
        tap_label(dev, answer)
    assert asked == ["Allow OpenTracks to access this device's location?",
                     "Allow OpenTracks to send you notifications?",
                     "Allow OpenTracks to find, connect to, and determine the relative position of "
                     "nearby devices?"]
    assert dev.foreground()[0] == TRACKS
    relaunch(dev, TRACKS)   # a denied prompt is not raised again
    assert dev.foreground()[0] == TRACKS
    assert granted(dev, TRACKS, "android.permission.ACCESS_FINE_LOCATION")
    assert not granted(dev, TRACKS, NOTIFY)


def test_opentracks_skips_the_prompts_granted_through_the_shell(dev):
    dev.shell(f"pm clear {TRACKS}")
    for perm in ("ACCESS_FINE_LOCATION", "POST_NOTIFICATIONS"):
        dev.shell(f"pm grant {TRACKS} android.permission.{perm}")
    dev.launch(TRACKS)
    assert labels(dev)[0].startswith("Allow OpenTracks to find, connect to")


def test_gallery_asks_for_all_files_access(dev):
    dev.shell(f"pm clear {GALLERY}")
    dev.launch(GALLERY)
    assert "All files" in labels(dev) and "Media only" in labels(dev)
    tap_label(dev, "All files")
    assert dev.foreground() == ("com.android.settings",
                                "com.android.settings.Settings$AppManageExternalStorageActivity")
    assert "Simple Gallery Pro" in labels(dev)
    switch = next(e for e in dev.ui_elements() if e.class_name.endswith("Switch"))
    dev.tap(*switch.center)
    tap_label(dev, "Navigate up")
    assert dev.foreground()[0] == GALLERY and granted(dev, GALLERY, ALL_FILES)
    relaunch(dev, GALLERY)
    assert "All files" not in labels(dev)


def test_a_first_run_state_is_part_of_the_snapshot(dev):
    snap = dev.snapshot()
    dev.shell(f"pm clear {CONTACTS}")
    dev.launch(CONTACTS)
    assert "Skip" in labels(dev)
    dev.restore(snap)
    dev.launch(CONTACTS)
    assert "Skip" not in labels(dev)
