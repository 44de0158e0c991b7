"""Pro Expense as the phone installs it: package, launcher entry, activities, storage."""

from __future__ import annotations

from antrap_gym.device.sim.apps.base import App
from antrap_gym.device.sim.apps.expense.screens import (
    PKG,
    ExpenseDetailActivity,
    ExpenseEntryActivity,
    ExpenseLogsActivity,
    MainActivity,
)
from antrap_gym.device.sim.apps.expense.store import ExpenseDb


class ProExpense(App):
    package = PKG
    label = "Pro Expense"
    home_position = 6
    version = "3.1.2"
    icon_color = (0, 150, 136)
    main = MainActivity
    activities = (ExpenseLogsActivity, ExpenseDetailActivity, ExpenseEntryActivity)
    storage = (ExpenseDb,)
