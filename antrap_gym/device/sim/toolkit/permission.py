"""The runtime permission prompt an app raises before using the camera, the microphone
or the location: Android's permission controller dialog, in front of the app.

It is plain data like `Dialog` (it lives in the activity's `popup`, so an open prompt
pickles with the state), but it is another package's window: the phone reports the
permission controller's GrantPermissionsActivity in front while it shows (`package`,
`component`), as `dumpsys window` does on a device. Its buttons carry the controller's
resource ids. A choice records the grant (`RuntimePermissions`) and calls
`activity.<action>(phone, *args, granted)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from antrap_gym.device.sim.toolkit import text as txt
from antrap_gym.device.sim.toolkit.builder import SP_TITLE

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext, Screen
    from antrap_gym.device.sim.toolkit.builder import UI
    from antrap_gym.device.sim.toolkit.views import Rect

CONTROLLER = "com.google.android.permissioncontroller"
GRANT_ACTIVITY = "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity"
RID = "com.android.permissioncontroller:id/"
WHILE_USING = "While using the app"
ONE_TIME = "Only this time"
ALLOW = "Allow"
DENY = "Don't allow"


@dataclass(slots=True)
class PermissionPrompt:
    """"Allow <app> to <what>?" for one permission. `one_time`: the foreground-only
    choices of a camera, microphone or location request (While using the app / Only
    this time / Don't allow); else Allow / Don't allow."""

    app: str
    what: str
    permission: str
    action: str
    args: tuple = ()
    one_time: bool = True
    cancelable: bool = False  # a touch outside does nothing; BACK denies (`on_back`)
    package: ClassVar[str] = CONTROLLER
    component: ClassVar[str] = f"{CONTROLLER}/{GRANT_ACTIVITY}"

    @property
    def title(self) -> str:
        return f"Allow {self.app} to {self.what}?"

    def build_card(self, ui: UI, screen: Rect) -> None:
        _card(ui, self, screen)

    def on_back(self, phone: PhoneContext, act: Screen) -> None:
        answer(phone, act, False)


def ask(phone: PhoneContext, act: Screen, app: str, what: str, permission: str, action: str,
        args: tuple = (), one_time: bool = True) -> None:
    """Show the prompt over `act`; its answer comes back as `act.<action>(phone, *args,
    granted)`."""
    phone.open_popup(act, PermissionPrompt(app, what, permission, action, args,  # type: ignore[arg-type]
                                           one_time))


def answer(phone: PhoneContext, act: Screen, granted: bool) -> None:
    """Answer the prompt `act` shows, as one of its buttons does (BACK: `granted=False`)."""
    p = act.popup
    if not isinstance(p, PermissionPrompt):
        return
    act.popup = None
    if granted:
        phone.state.permissions.grant(act.package, p.permission)
    getattr(act, p.action)(phone, *p.args, granted)
    phone.changed()


def _card(ui: UI, p: PermissionPrompt, screen: Rect) -> None:
    phone, act = ui.phone, ui.activity
    d = ui.dp
    x0, x1 = screen[0] + d(24), screen[2] - d(24)
    tx0, tx1 = x0 + d(24), x1 - d(24)
    size = ui.sp(SP_TITLE)
    title_h = len(txt.wrap(p.title, size, tx1 - tx0)) * txt.line_height(size) + d(16)
    buttons = ([(WHILE_USING, "permission_allow_foreground_only_button", True),
                (ONE_TIME, "permission_allow_one_time_button", True)] if p.one_time
               else [(ALLOW, "permission_allow_button", True)])
    buttons.append((DENY, "permission_deny_button", False))
    btn_h = d(56)
    h = d(24) + d(56) + title_h + btn_h * len(buttons) + d(16)
    y0 = screen[1] + (screen[3] - screen[1] - h) // 2
    card = ui.mk("dialog", (x0, y0, x1, y0 + h), style="system",
                 rid="com.android.permissioncontroller:id/grant_dialog")
    y = y0 + d(24)
    cx = (x0 + x1) // 2
    ui.mk("image", (cx - d(16), y, cx + d(16), y + d(32)), card, icon="shield")
    y += d(56)
    ui.mk("text", (tx0, y, tx1, y + title_h), card, text=p.title, style="dialog_title_center",
          rid=RID + "permission_message")
    y += title_h
    for label, rid, granted in buttons:
        ui.mk("button", (tx0, y + d(4), tx1, y + btn_h - d(4)), card, text=label,
              style="tonal_wide", rid=RID + rid,
              on_click=(lambda g=granted: answer(phone, act, g)))  # type: ignore[arg-type]
        y += btn_h
