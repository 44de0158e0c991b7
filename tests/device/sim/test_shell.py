"""The simulated phone's shell speaks Android: formats, exit codes, quoting."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from antrap_gym.device import parse_ui_xml


def test_settings_get_put_list_delete(dev):
    assert dev.shell("settings get global wifi_on").stdout == "1\n"
    assert dev.shell("settings put global wifi_on 0").exit_code == 0
    assert dev.shell("settings get global wifi_on").stdout == "0\n"
    assert dev.shell("settings get system no_such_key").stdout == "null\n"
    assert "screen_brightness=102" in dev.shell("settings list system").stdout
    assert dev.shell("settings delete system font_scale").stdout == "Deleted 1 rows\n"
    bad = dev.shell("settings get nowhere x")
    assert bad.exit_code != 0 and "Invalid namespace" in bad.stderr


def test_content_provider_format_and_crud(dev):
    uri = "content://com.android.contacts"
    assert dev.shell(f"content query --uri {uri}/contacts").stdout == "No result found.\n"
    assert dev.shell(f"content insert --uri {uri}/raw_contacts --bind account_type:n: "
                     "--bind account_name:n:").exit_code == 0
    rid = dev.shell(f"content query --uri {uri}/raw_contacts --projection _id").stdout
    assert rid == "Row: 0 _id=1\n"
    for mime, value in (("name", "Ada Lovelace"), ("phone_v2", "555-0100")):
        r = dev.shell(f"content insert --uri {uri}/data --bind raw_contact_id:i:1 "
                      f"--bind mimetype:s:vnd.android.cursor.item/{mime} --bind 'data1:s:{value}'")
        assert r.exit_code == 0, r.stderr
    out = dev.shell(f"content query --uri {uri}/contacts --projection _id:display_name:starred")
    assert out.stdout == "Row: 0 _id=1, display_name=Ada Lovelace, starred=0\n"
    phones = dev.shell(f"content query --uri {uri}/data/phones --projection display_name:data1")
    assert phones.stdout == "Row: 0 display_name=Ada Lovelace, data1=555-0100\n"
    assert dev.shell(f"content update --uri {uri}/contacts --bind starred:i:1 "
                     "--where \"display_name='Ada Lovelace'\"").exit_code == 0
    assert "starred=1" in dev.shell(f"content query --uri {uri}/contacts").stdout
    assert dev.shell(f"content delete --uri {uri}/raw_contacts --where _id=1").exit_code == 0
    assert dev.shell(f"content query --uri {uri}/data").stdout == "No result found.\n"
    bad = dev.shell(f"content query --uri {uri}/contacts --where 'no_such_col=1'")
    assert bad.exit_code != 0 and "no such column" in bad.stderr
    assert bad.stderr.count("Error while accessing provider") == 1, bad.stderr
    assert dev.shell("content query --uri content://nope/x").exit_code != 0


def test_settings_through_content(dev):
    out = dev.shell("content query --uri content://settings/global --where \"name='wifi_on'\"")
    assert out.stdout.startswith("Row: 0 _id=") and "name=wifi_on, value=1" in out.stdout


def test_files_and_redirections(dev):
    assert dev.shell("mkdir -p /sdcard/Documents/Notes/deep").exit_code == 0
    assert dev.shell("echo 'hello world' > /sdcard/Documents/Notes/a.md").exit_code == 0
    assert dev.shell("echo again >> /sdcard/Documents/Notes/a.md").exit_code == 0
    assert dev.shell("cat /storage/emulated/0/Documents/Notes/a.md").stdout == "hello world\nagain\n"
    assert dev.shell("ls /sdcard/Documents/Notes").stdout == "a.md\ndeep\n"
    assert dev.shell("touch /sdcard/Documents/Notes/b.txt; ls /sdcard/Documents/Notes/*.txt").stdout \
        == "/sdcard/Documents/Notes/b.txt\n"
    r = dev.shell("cat /sdcard/missing")
    assert r.exit_code == 1 and "No such file or directory" in r.stderr
    assert dev.shell("rm /sdcard/Documents/Notes").exit_code == 1
    assert "Notes" not in dev.shell("rm -r /sdcard/Documents/Notes && ls /sdcard/Documents").stdout
    assert dev.shell("echo x > /system/foo").exit_code != 0
    assert dev.shell("printf '%s|%d' abc 42").stdout == "abc|42"


def test_status_logic_and_pipes(dev):
    assert dev.shell("false; echo $?").stdout == "1\n"
    assert dev.shell("false && echo no || echo yes").stdout == "yes\n"
    assert dev.shell("dumpsys window | grep -c mCurrentFocus").stdout == "1\n"
    assert dev.shell("echo \"$(echo inner)\" `echo tick`").stdout == "inner tick\n"
    assert dev.shell("test -d /sdcard && echo dir").stdout == "dir\n"


def test_a_script_sent_again_is_run_again_at_its_own_moment(dev):
    """A script's parse is kept (checks send the same few every step), its expansion is
    not: the same text sees each run's `$?`, files and command output, and a script that
    does not parse fails every time it is sent."""
    script = "cat /sdcard/n.txt; echo \"$?:$(ls /sdcard | grep -c n.txt)\""
    first = dev.shell(script)
    assert first.stdout == "1:0\n" and first.exit_code == 0
    dev.shell("echo 7 > /sdcard/n.txt")
    assert dev.shell(script).stdout == "7\n0:1\n"
    dev.shell("rm /sdcard/n.txt")
    assert dev.shell(script).stdout == "1:0\n"
    for _ in range(2):
        bad = dev.shell("echo 'unterminated")
        assert bad.exit_code == 2 and "unterminated" in bad.stderr


@pytest.mark.parametrize("cmd", [
    "nosuchcommand", "input", "input tap x y", "input tap 1", "input keyevent NOPE",
    "am start -n", "settings", "content query", "echo 'unterminated", "ls &&", "| ls",
    "input swipe 1 2 3", "monkey -p nope 1", "screencap -q -q", "sleep -4", "date -s 2020",
])
def test_malformed_commands_fail_cleanly(dev, cmd):
    res = dev.shell(cmd)
    assert res.exit_code != 0
    assert res.stderr


def test_unquoted_substitution_runs_but_quoted_does_not(dev):
    dev.shell("echo '$(touch /sdcard/pwned)'")
    assert dev.shell("ls /sdcard/pwned").exit_code == 1
    dev.shell("echo $(touch /sdcard/pwned)")
    assert dev.shell("ls /sdcard/pwned").exit_code == 0
    assert "touch /sdcard/pwned" in dev.phone.shell_log


def test_input_text_refuses_non_ascii_and_ime_broadcast_types_it(dev):
    dev.launch("com.android.settings")
    from tests.screen import need

    x, y = need(dev, cls="EditText").center
    dev.tap(x, y)
    r = dev.shell("input text 'caf\u00e9'")
    assert r.exit_code != 0 and "IllegalArgument" in r.stderr
    assert dev.shell("ime set com.android.adbkeyboard/.AdbIME").exit_code == 0
    import base64

    msg = base64.b64encode("caf\u00e9 ☕".encode()).decode()
    assert dev.shell(f"am broadcast -a ADB_INPUT_B64 --es msg {msg}").exit_code == 0
    assert need(dev, cls="EditText").text == "caf\u00e9 ☕"


def test_input_text_percent_s_is_space(dev):
    dev.launch("com.android.settings")
    from tests.screen import need

    x, y = need(dev, cls="EditText").center
    dev.shell(f"input tap {x} {y}")
    dev.shell("input text hello%sworld")
    assert need(dev, cls="EditText").text == "hello world"


def test_app_management_and_dumpsys(dev):
    assert "package:com.android.settings" in dev.shell("pm list packages").stdout
    out = dev.shell("am start -n 'com.android.settings/.Settings$DisplaySettingsActivity'")
    assert out.exit_code == 0 and out.stdout.startswith("Starting: Intent")
    focus = dev.shell("dumpsys window | grep mCurrentFocus").stdout
    assert "com.android.settings/com.android.settings.Settings$DisplaySettingsActivity" in focus
    assert dev.foreground() == ("com.android.settings",
                                "com.android.settings.Settings$DisplaySettingsActivity")
    dev.shell("am force-stop com.android.settings")
    assert dev.foreground()[0] == "com.google.android.apps.nexuslauncher"
    assert dev.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1").ok
    assert dev.foreground() == ("com.android.settings", "com.android.settings.Settings")
    assert dev.shell("am start -n com.android.settings/.NoSuch").exit_code != 0


def test_device_info_commands(dev):
    assert dev.shell("wm size").stdout == "Physical size: 1080x2400\n"
    assert dev.shell("getprop ro.product.model").stdout == "Pixel 6\n"
    assert dev.shell("date").stdout == "Sun Oct 15 15:34:00 UTC 2023\n"
    dev.shell("sleep 90")
    assert dev.shell("date +%H:%M").stdout == "15:35\n"


def test_uiautomator_dump_roundtrip(dev):
    dev.launch("com.android.settings")
    out = dev.shell("uiautomator dump")
    assert out.stdout == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    xml = dev.shell("cat /sdcard/window_dump.xml").stdout
    assert xml.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy")
    nodes = parse_ui_xml(xml)
    texts = {n.text for n in nodes}
    assert "Network & internet" in texts and "Display" in texts
    labelled = {e.text for e in dev.ui_elements() if e.text}
    assert labelled <= texts


def test_screencap_png_and_raw(dev):
    png = dev.shell("screencap -p")
    assert png.data is not None and png.data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png.data))
    assert img.size == (1080, 2400)
    raw = dev.shell("screencap").stdout_bytes
    import struct

    w, h, fmt, _ = struct.unpack("<IIII", raw[:16])
    assert (w, h, fmt) == (1080, 2400, 1) and len(raw) == 16 + w * h * 4


def test_shell_never_raises_on_garbage(dev):
    for cmd in ["\x00", "$((", "`", "'\"", ">" * 50, "a" * 100_000, ";;;", "$(" * 40,
                "echo $(echo $(echo $(echo $(echo $(echo $(echo $(echo $(echo $(echo deep)))))))))"]:
        res = dev.shell(cmd)
        assert isinstance(res.exit_code, int)


def test_sqlite3_on_the_contacts_database(dev):
    db = "/data/data/com.android.providers.contacts/databases/contacts2.db"
    assert dev.shell(f"sqlite3 {db} \"INSERT INTO raw_contacts (display_name) VALUES ('Bo')\"").ok
    assert dev.shell(f"sqlite3 {db} 'SELECT _id, display_name FROM raw_contacts'").stdout == "1|Bo\n"
    bad = dev.shell(f"sqlite3 {db} 'SELEC nonsense'")
    assert bad.exit_code != 0 and "syntax error" in bad.stderr
    assert dev.shell("sqlite3 /data/nope.db 'SELECT 1'").exit_code != 0


def test_head_and_tail_by_lines_and_bytes(dev):
    dev.shell("printf 'one\\ntwo\\nthree\\nfour' > /sdcard/a.txt")  # no final newline
    f = "/sdcard/a.txt"
    assert dev.shell(f"head -c 5 {f}").stdout == "one\nt"
    assert dev.shell(f"head -c5 {f}").stdout == "one\nt"
    assert dev.shell(f"head --bytes=2 {f}").stdout == "on"
    assert dev.shell(f"tail -c 4 {f}").stdout == "four"
    assert dev.shell(f"tail -c +5 {f}").stdout == "two\nthree\nfour"  # from byte 5
    assert dev.shell(f"tail -c 0 {f}").stdout == ""
    assert dev.shell(f"head -c 1000 {f}").stdout == "one\ntwo\nthree\nfour"
    assert dev.shell(f"cat {f} | head -c 3").stdout == "one"
    assert dev.shell(f"head -n 2 {f}").stdout == "one\ntwo\n"
    assert dev.shell(f"head -3 {f}").stdout == "one\ntwo\nthree\n"
    assert dev.shell(f"tail -n 2 {f}").stdout == "three\nfour"  # the missing newline stays missing
    assert dev.shell(f"tail -n +3 {f}").stdout == "three\nfour"
    assert dev.shell(f"head {f}").stdout == "one\ntwo\nthree\nfour"
    two = dev.shell(f"head -n 1 {f} {f}").stdout
    assert two == f"==> {f} <==\none\n\n==> {f} <==\none\n"
    assert dev.shell(f"head -q -n 1 {f} {f}").stdout == "one\none\n"


def test_head_and_tail_bytes_are_exact_on_binary_data(dev):
    dev.shell("screencap -p /sdcard/s.png")
    png = dev.phone.fs.read("/sdcard/s.png")
    out = dev.shell("head -c 8 /sdcard/s.png")
    assert out.stdout_bytes == png[:8] and png[:8] == b"\x89PNG\r\n\x1a\n"
    assert dev.shell("tail -c 12 /sdcard/s.png").stdout_bytes == png[-12:]  # IEND chunk


@pytest.mark.parametrize("cmd, message", [
    ("head -c x /sdcard/a.txt", "not integer"),
    ("tail -c", "requires an argument"),
    ("head -z /sdcard/a.txt", "Unknown option"),
    ("head /sdcard/nope", "No such file or directory"),
])
def test_head_and_tail_errors(dev, cmd, message):
    dev.shell("echo hi > /sdcard/a.txt")
    res = dev.shell(cmd)
    assert res.exit_code == 1 and message in res.stderr


def test_radio_commands_persist_as_android_does(dev):
    def get(key):
        return dev.shell(f"settings get global {key}").stdout.strip()

    assert dev.shell("svc wifi disable").exit_code == 0 and get("wifi_on") == "0"
    assert dev.shell("svc wifi enable").exit_code == 0 and get("wifi_on") == "1"
    assert dev.shell("svc bluetooth enable").exit_code == 0 and get("bluetooth_on") == "1"
    # airplane mode takes both radios down and remembers that they were on
    assert dev.shell("cmd connectivity airplane-mode enable").exit_code == 0
    assert (get("airplane_mode_on"), get("wifi_on"), get("bluetooth_on")) == ("1", "3", "2")
    assert dev.shell("cmd connectivity airplane-mode").stdout == "enabled\n"
    dev.shell("cmd connectivity airplane-mode disable")
    assert (get("airplane_mode_on"), get("wifi_on"), get("bluetooth_on")) == ("0", "1", "1")
    # Wi-Fi turned back on inside airplane mode is the override value, 2
    dev.shell("cmd connectivity airplane-mode enable")
    dev.shell("svc wifi enable")
    assert get("wifi_on") == "2"
    assert dev.shell("cmd wifi status").stdout == "Wifi is enabled\n"
    assert dev.shell("cmd wifi set-wifi-enabled disabled").exit_code == 0 and get("wifi_on") == "0"
    for bad in ("svc wifi sideways", "cmd connectivity airplane-mode maybe", "svc nfc sideways",
                "cmd wifi set-wifi-enabled on"):
        before = dev.shell("settings list global").stdout
        assert dev.shell(bad).exit_code != 0, bad
        assert dev.shell("settings list global").stdout == before, bad


def test_service_commands_write_the_keys_settings_reads(dev):
    def get(ns, key):
        return dev.shell(f"settings get {ns} {key}").stdout.strip()

    assert dev.shell("cmd uimode night yes").stdout == "Night mode: yes\n"
    assert get("secure", "ui_night_mode") == "2" and dev.phone.dark
    assert dev.shell("cmd uimode night").stdout == "Night mode: yes\n"
    dev.shell("cmd uimode night no")
    assert get("secure", "ui_night_mode") == "1"
    assert dev.shell("cmd uimode night sometimes").exit_code != 0
    dev.shell("cmd location set-location-enabled false")
    assert get("secure", "location_mode") == "0"
    assert dev.shell("cmd location is-location-enabled").stdout == "false\n"
    dev.shell("cmd power set-mode 1")
    assert get("global", "low_power") == "1"
    r = dev.shell("cmd media_session volume --show --stream 2 --set 3")
    assert r.exit_code == 0 and get("system", "volume_ring_speaker") == "3"
    assert dev.shell("cmd media_session volume --stream 2 --get").stdout == \
        "volume is 3 in range [0..7]\n"
    assert dev.shell("cmd media_session volume --stream 2 --set 9").exit_code != 0
    assert get("system", "volume_ring_speaker") == "3"
    assert get("system", "volume_ring") == "null"  # the real key only
    assert dev.shell("cmd nosuchservice").exit_code != 0


def test_getprop_reads_the_phones_own_properties(dev):
    assert dev.shell("getprop ro.build.version.release").stdout == "13\n"
    assert dev.shell("getprop ro.build.display.id").stdout == "TQ3A.230805.001\n"
    dev.phone.prop_overrides = {"ro.build.display.id": "UQ1A.240105.004"}
    assert dev.shell("getprop ro.build.display.id").stdout == "UQ1A.240105.004\n"
    assert "[ro.build.display.id]: [UQ1A.240105.004]" in dev.shell("getprop").stdout
    assert dev.shell("setprop ro.build.display.id X").exit_code != 0


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab '\"$`\\!;&|()*?[]{}<>#~\n\t%é"), max_size=30))
def test_the_task_quote_is_one_literal_word_here_and_in_a_real_sh(text):
    """`tasks.recipes.q` (double quotes for SQL full of literals, else single quotes) gives
    the text back exactly, on the simulated phone's shell and in the system's /bin/sh."""
    import subprocess

    from antrap_gym.device.sim import SimDevice
    from antrap_gym.tasks.recipes import q

    dev = SimDevice()
    assert dev.shell(f"printf '%s' {q(text)}").stdout == text
    real = subprocess.run(["sh", "-c", f"printf '%s' {q(text)}"], capture_output=True, text=True)
    assert real.stdout == text


def test_sqlite3_prints_every_statements_rows_and_literal_semicolons_do_not_split(dev):
    """`sqlite3 DB "A; B; C"` runs each statement and prints what each returns, as the real
    tool does; a `;` inside a string literal is part of the literal (a dump of INSERTs)."""
    db = "/data/data/com.android.providers.contacts/databases/contacts2.db"
    out = dev.shell(f"sqlite3 {db} \"SELECT 'x;y'; INSERT INTO accounts (account_name) VALUES ('a;b');"
                    " SELECT 'INSERT INTO t VALUES(' || quote(account_name) || ');' FROM accounts"
                    " WHERE account_name = 'a;b';\"")
    assert out.ok, out.stderr
    assert out.stdout == "x;y\nINSERT INTO t VALUES('a;b');\n"
    bad = dev.shell(f"sqlite3 {db} \"SELECT 1; SELEC 2;\"")
    assert not bad.ok and "syntax error" in bad.stderr
