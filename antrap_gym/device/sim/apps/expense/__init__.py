"""Pro Expense: expenses with name, amount, category, date and note over accounting.db (`com.arduia.expense`).

- `screens`: its activities;
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.expense.app import ProExpense

APP = ProExpense

__all__ = ["APP", "ProExpense"]
