"""Simple SMS Messenger as the phone installs it: package, launcher entry, activities, storage."""

from __future__ import annotations

from typing import TYPE_CHECKING

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.sms.provider import SmsProvider
from antrap_gym.device.sim.apps.sms.screens import (
    PKG,
    MainActivity,
    NewConversationActivity,
    ThreadActivity,
)

if TYPE_CHECKING:
    from antrap_gym.device.sim.context import PhoneContext


class SimpleSms(App):
    package = PKG
    label = "Simple SMS Messenger"
    version = "5.17.5"
    icon_color = (25, 118, 210)
    main = MainActivity
    activities = (NewConversationActivity, ThreadActivity)
    intents = {"android.intent.action.SENDTO": ".activities.ThreadActivity"}
    #: on Android the telephony provider is its own package (com.android.providers.telephony,
    #: where mmssms.db lives); here it ships with the app that shows it
    storage = (SmsProvider,)

    @classmethod
    def install(cls, phone: PhoneContext) -> None:
        """The provider dates a message written without one by the device clock."""
        SmsProvider.of(phone).clock = lambda: phone.clock_ms
