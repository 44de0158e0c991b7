"""Pro Expense: expenses with name, amount, category, date and note over accounting.db (`com.arduia.expense`).

- `store`: `ExpenseDb`, the `expense` table at its real path, and the money helpers;
- `screens`: its activities (home, expense logs, details, the entry form);
- `app`: the `App` the phone installs (`APP`, registered in `apps/__init__.py`).
"""

from antrap_gym.device.sim.apps.expense.app import ProExpense
from antrap_gym.device.sim.apps.expense.store import CATEGORIES, DB_PATH, Expense, ExpenseDb

APP = ProExpense

__all__ = ["APP", "CATEGORIES", "DB_PATH", "Expense", "ExpenseDb", "ProExpense"]
