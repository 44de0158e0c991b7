"""Intents with data: an app declares what it opens (`App.intent_filters`), and
`am start -a VIEW -d URI -t TYPE` starts it with the data, or offers a chooser when
several apps take it. The viewers here are small apps installed only in these tests."""

from __future__ import annotations

from antrap_gym.device.sim import SimDevice
from antrap_gym.device.sim.apps import Activity, App, default_apps
from antrap_gym.device.sim.intents import (
    Intent,
    IntentFilter,
    document_uri,
    local_path,
    mime_type,
)
from tests.screen import texts

VIEW = "android.intent.action.VIEW"


class PageActivity(Activity):
    """Shows the URI it was handed and, for a local file, the file's text."""

    name = ".PageActivity"

    def __init__(self) -> None:
        super().__init__()
        self.uri = ""

    def on_intent(self, phone, intent: Intent) -> None:
        self.uri = intent.data

    def build(self, ui, phone) -> None:
        ui.toolbar(self.uri or "nothing opened")
        path = local_path(self.uri) if self.uri else None
        if path and phone.fs.isfile(path):
            ui.text(phone.fs.read_text(path))


class HtmlViewer(App):
    package = "org.example.htmlviewer"
    label = "Page Viewer"
    main = PageActivity
    intent_filters = (IntentFilter(mime_types=("text/html",), schemes=("file", "content")),
                      IntentFilter(schemes=("http", "https")))


class PageActivity2(PageActivity):
    pass


class OtherViewer(App):
    package = "org.example.otherviewer"
    label = "Other Viewer"
    main = PageActivity2
    intent_filters = (IntentFilter(mime_types=("text/*",)),)


PageActivity.package = HtmlViewer.package
PageActivity2.package = OtherViewer.package


def page_device(*extra: type[App]) -> SimDevice:
    """A phone whose only viewers of HTML files and web URLs are `extra` (its own
    browser, Chrome, is left out)."""
    own = [a for a in default_apps() if not any(
        f.matches(Intent(VIEW, "file:///x.html", "text/html")) or f.matches(Intent(VIEW, "https://x/"))
        for f in a.intent_filters)]
    dev = SimDevice(apps=[*own, *extra])
    assert dev.shell("mkdir -p /sdcard/Download && printf '%s' 'hello page' > "
                     "/sdcard/Download/task.html").exit_code == 0
    return dev


def test_am_start_view_opens_the_app_that_takes_the_type_with_the_data():
    dev = page_device(HtmlViewer)
    res = dev.shell(f"am start -a {VIEW} -d file:///sdcard/Download/task.html -t text/html")
    assert res.exit_code == 0, res.stderr
    assert "dat=file:///sdcard/Download/task.html typ=text/html" in res.stdout
    assert dev.foreground()[0] == HtmlViewer.package
    assert "file:///sdcard/Download/task.html" in texts(dev)
    assert "hello page" in texts(dev)


def test_am_start_view_of_a_url_matches_a_scheme_filter():
    dev = page_device(HtmlViewer)
    assert dev.shell(f"am start -a {VIEW} -d https://example.org/").exit_code == 0
    assert dev.foreground()[0] == HtmlViewer.package
    assert "https://example.org/" in texts(dev)


def test_am_start_with_a_component_hands_it_the_data():
    dev = page_device(HtmlViewer)
    res = dev.shell(f"am start -n {HtmlViewer.package}/.PageActivity -d file:///sdcard/Download/task.html")
    assert res.exit_code == 0, res.stderr
    assert "hello page" in texts(dev)


def test_an_intent_nobody_takes_is_not_resolved():
    dev = page_device()  # no viewer installed
    res = dev.shell(f"am start -a {VIEW} -d file:///sdcard/Download/task.html -t text/html")
    assert res.exit_code != 0 and "unable to resolve Intent" in res.stderr
    dev2 = page_device(HtmlViewer)  # a type the viewer does not take
    res = dev2.shell(f"am start -a {VIEW} -d file:///sdcard/Download/x.pdf -t application/pdf")
    assert res.exit_code != 0
    assert dev2.foreground()[0] != HtmlViewer.package


def test_several_apps_that_take_it_are_offered_in_the_chooser():
    dev = page_device(HtmlViewer, OtherViewer)
    assert dev.shell(f"am start -a {VIEW} -d file:///sdcard/Download/task.html -t text/html").exit_code == 0
    shown = texts(dev)
    assert "Open with" in shown and "Page Viewer" in shown and "Other Viewer" in shown
    pick = next(e for e in dev.ui_elements() if e.text == "Other Viewer")
    dev.tap(*pick.center)
    assert dev.foreground()[0] == OtherViewer.package
    assert "hello page" in texts(dev)


def test_uris_and_types():
    assert mime_type("task.html") == "text/html" and mime_type("a.MP3") == "audio/mpeg"
    assert mime_type("noext") == "application/octet-stream"
    uri = document_uri("/sdcard/Download/my file.html")
    assert uri == ("content://com.android.externalstorage.documents/document/"
                   "primary%3ADownload%2Fmy%20file.html")
    assert local_path(uri) == "/sdcard/Download/my file.html"
    assert local_path("file:///storage/emulated/0/Music/a.mp3") == "/sdcard/Music/a.mp3"
    assert local_path("https://example.org/") is None
    html = Intent(VIEW, "file:///sdcard/a.html", "text/html")
    assert IntentFilter(mime_types=("text/*",)).matches(html)
    assert not IntentFilter(schemes=("http",)).matches(html)
    assert not IntentFilter(mime_types=("image/*",)).matches(html)
