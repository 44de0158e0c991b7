"""Chrome on the simulated phone, driven as a user would: the first-run screens after
`pm clear`, pages opened by intents, the omnibox, tabs, the menu and BACK."""

from __future__ import annotations

from antrap_gym.device.sim import SimDevice
from tests.screen import find, tap, texts
from tests.web_pages import MAIN, URL, finish_first_run, open_page, push

PKG = "com.android.chrome"
HELLO = "<html><head><title>Hello</title></head><body><h1>Hello page</h1>" \
        "<button id='b' onclick=\"this.textContent='Pressed'\">Press</button></body></html>"


def focus(dev: SimDevice) -> str:
    return dev.shell("dumpsys window | grep mCurrentFocus").stdout


def test_first_run_screens_after_pm_clear_then_the_page():
    dev = SimDevice()
    push(dev, HELLO)
    assert dev.shell(f"pm clear {PKG}").exit_code == 0
    assert dev.shell(f"am start -n {MAIN} -d {URL}").exit_code == 0
    assert "firstrun.FirstRunActivity" in focus(dev)
    assert "Welcome to Chrome" in texts(dev)
    tap(dev, text="Use without an account")
    assert "Turn on sync?" in texts(dev)
    tap(dev, text="No thanks")
    assert "Allow Chrome to send you notifications?" in texts(dev)
    tap(dev, text="Don\u2019t allow")
    assert "ChromeTabbedActivity" in focus(dev)
    assert "Hello page" in texts(dev) and find(dev, rid=f"{PKG}:id/url_bar").text == URL
    # done once: a second start goes straight to the page; pm clear brings the screens back
    dev.shell(f"am force-stop {PKG}")
    dev.shell(f"am start -n {MAIN} -d {URL}")
    assert "Hello page" in texts(dev)
    dev.shell(f"pm clear {PKG}")
    dev.shell(f"am start -n {MAIN}")
    assert "Welcome to Chrome" in texts(dev)


def test_a_granted_notification_permission_is_not_asked_for_and_allow_grants_it():
    dev = SimDevice()
    push(dev, HELLO)
    grant = f"pm grant {PKG} android.permission.POST_NOTIFICATIONS"
    granted = "android.permission.POST_NOTIFICATIONS: granted=true"
    dev.shell(f"pm clear {PKG}")
    assert dev.shell(grant).exit_code == 0
    dev.shell(f"am start -n {MAIN} -d {URL}")
    tap(dev, text="Use without an account")
    tap(dev, text="No thanks")
    assert "Allow Chrome to send you notifications?" not in texts(dev) and "Hello page" in texts(dev)
    dev.shell(f"pm clear {PKG}")  # the grant goes with Chrome's data; the prompt comes back
    assert granted not in dev.shell(f"dumpsys package {PKG}").stdout
    dev.shell(f"am start -n {MAIN} -d {URL}")
    tap(dev, text="Use without an account")
    tap(dev, text="No thanks")
    tap(dev, text="Allow")
    assert granted in dev.shell(f"dumpsys package {PKG}").stdout


def test_view_intent_of_an_html_file_opens_chrome():
    dev = SimDevice()
    push(dev, HELLO)
    res = dev.shell(f"am start -a android.intent.action.VIEW -d {URL} -t text/html")
    assert res.exit_code == 0, res.stderr
    finish_first_run(dev)
    assert dev.foreground()[0] == PKG and "Hello page" in texts(dev)
    tap(dev, text="Press")
    assert "Pressed" in texts(dev)


def test_omnibox_opens_files_and_fails_on_the_network():
    dev = open_page(HELLO)
    push(dev, "<p>Second page</p>", "/sdcard/Download/two.html")
    for typed, want in (("file:///sdcard/Download/two.html", "Second page"),
                        ("https://example.org/", "This site can\u2019t be reached"),
                        ("/sdcard/Download/none.html", "Your file couldn\u2019t be accessed"),
                        ("/sdcard/Download/two.html", "Second page")):
        tap(dev, rid=f"{PKG}:id/url_bar")
        dev.type_text(typed + "\n")
        assert want in texts(dev), (typed, texts(dev))
    # BACK walks the history back, then leaves Chrome
    dev.key("BACK")
    assert "Your file couldn\u2019t be accessed" in texts(dev)
    for _ in range(3):
        dev.key("BACK")
    assert "Hello page" in texts(dev)
    dev.key("BACK")
    assert dev.foreground()[0] != PKG


def test_tabs_menu_and_reload():
    dev = open_page(HELLO)
    tap(dev, text="Press")
    assert "Pressed" in texts(dev)
    tap(dev, desc="Customize and control Google Chrome")
    tap(dev, text="Reload")
    assert "Press" in texts(dev) and "Pressed" not in texts(dev)  # a reload starts the page anew
    tap(dev, desc="Customize and control Google Chrome")
    tap(dev, text="New tab")
    assert find(dev, desc="Switch or close tabs").text == "2"
    assert find(dev, rid=f"{PKG}:id/search_box_text") is not None
    tap(dev, desc="Switch or close tabs")
    assert "Hello" in texts(dev) and "New tab" in texts(dev)
    tap(dev, desc="Close New tab tab")
    tap(dev, text="Hello")
    assert "Hello page" in texts(dev) and find(dev, desc="Switch or close tabs").text == "1"


def test_page_pixels_follow_its_css():
    dev = open_page("<title>Colours</title><body style='margin:0'>"
                    "<div id='r' style='background:#ff0000;width:100px;height:50px'>"
                    "</div><button style='background:rgb(0,0,255);color:white;border:none;width:80px;"
                    "height:40px' aria-label='Blue'></button></body>")
    blue = find(dev, desc="Blue")
    assert blue is not None and blue.is_clickable and not blue.text
    frame = dev.screenshot()
    web = find(dev, desc="Colours", cls="WebView").bbox_pixels
    assert tuple(frame[web.y_min + 60, 100]) == (255, 0, 0)
    b = blue.bbox_pixels
    assert tuple(frame[(b.y_min + b.y_max) // 2, b.x_min + 5]) == (0, 0, 255)


COUNTER = ("<html><body><p id='n'>0</p><button onclick=\"var p=document.getElementById('n');"
           "p.textContent=String(Number(p.textContent)+1)\">Add</button></body></html>")


def test_a_restored_page_is_the_same_whether_its_context_is_loaded_afresh_or_taken_over():
    """A restore releases the phone's pages, and their JavaScript contexts are parked for a
    page that begins where one left off (the oracle's forks restore the same state over
    and over). Taken over or loaded afresh, a restored page shows the same screen, and a
    context whose log went past the restored page's is never taken over."""
    from antrap_gym.device.sim.web import page as page_mod

    dev = open_page(COUNTER)
    snaps = [dev.snapshot()]
    for _ in range(3):
        tap(dev, text="Add")
        snaps.append(dev.snapshot())
    assert "3" in texts(dev)

    def screen(i: int, fresh: bool) -> tuple:
        if fresh:
            page_mod._parked.clear()
        page_mod.forget_layouts()  # else a page state laid out before needs no context
        dev.restore(snaps[i])
        return tuple(dev.ui_elements()), dev.screenshot().tobytes()

    reference = {i: screen(i, fresh=True) for i in range(len(snaps))}
    assert len({r[0] for r in reference.values()}) == len(snaps)  # four different screens
    taken_over = 0
    for i in (3, 0, 1, 2, 3, 1, 0, 2):  # back to earlier logs and on to later ones
        page_mod.forget_layouts()
        dev.restore(snaps[i])  # the page now up is released to the park
        parked = len(page_mod._parked)
        assert parked >= 1
        elements = tuple(dev.ui_elements())
        taken_over += len(page_mod._parked) < parked
        assert (elements, dev.screenshot().tobytes()) == reference[i], i
    assert taken_over >= 4  # the park was used, not only filled


def test_a_page_state_laid_out_before_needs_no_javascript_context():
    """A page's layout is remembered by its state (source, clock, seed, the log of what
    was done): a phone restored to states shown before, and actions that lead to states
    shown before, load no JavaScript context at all; a state not seen yet sends the
    logged actions to one, and shows what a page driven step by step shows."""
    from antrap_gym.device.sim.web import page as page_mod
    from antrap_gym.device.sim.web import script

    def engines_made() -> int:
        return next(script._SERIALS)  # serials are handed out in order, one per context

    dev = open_page(COUNTER)
    snaps = [dev.snapshot()]
    screens = [tuple(dev.ui_elements())]
    for _ in range(2):
        tap(dev, text="Add")
        snaps.append(dev.snapshot())
        screens.append(tuple(dev.ui_elements()))
    before = engines_made()
    for i in (2, 0, 1, 2, 1):
        dev.restore(snaps[i])
        assert tuple(dev.ui_elements()) == screens[i]
    tap(dev, text="Add")  # from state 1: to state 2, laid out before
    assert tuple(dev.ui_elements()) == screens[2]
    assert engines_made() == before + 1  # only the probe's own serial: no context loaded

    page_mod._parked.clear()
    tap(dev, text="Add")  # a state never shown: the log goes to a context loaded afresh
    assert "3" in texts(dev) and tuple(dev.ui_elements()) not in screens
    assert engines_made() > before + 2


CLOCK = ("<html><body><p id='t'></p><script>document.getElementById('t').textContent = "
         "'at ' + Date.now()</script></body></html>")


def test_a_page_opened_again_later_reuses_its_layouts_unless_it_read_the_clock():
    """A page state reached without reading the clock or drawing a random number is the
    same whatever time the page was opened at: opened again an hour later (another phone),
    the states shown before load no JavaScript context. A page that read the clock shows
    its own time."""
    from antrap_gym.device.sim.web import page as page_mod
    from antrap_gym.device.sim.web import script

    def engines_made() -> int:
        return next(script._SERIALS)  # serials are handed out in order, one per context

    def later() -> SimDevice:
        dev = SimDevice()
        dev.phone.advance(3_600_000)
        return dev

    page_mod.forget_layouts()
    first = open_page(COUNTER)
    shown = [tuple(first.ui_elements())]
    tap(first, text="Add")
    shown.append(tuple(first.ui_elements()))
    page_mod._parked.clear()

    again = later()
    before = engines_made()
    open_page(COUNTER, again)
    assert tuple(again.ui_elements()) == shown[0]
    tap(again, text="Add")
    assert tuple(again.ui_elements()) == shown[1]
    assert engines_made() == before + 1  # only the probe's own serial: no context loaded

    at = [t for t in texts(open_page(CLOCK)) if t.startswith("at ")]
    before = engines_made()
    at_later = [t for t in texts(open_page(CLOCK, later())) if t.startswith("at ")]
    assert at and at_later and at != at_later  # each opening shows its own time
    assert engines_made() > before + 1
