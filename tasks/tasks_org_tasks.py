"""Templates: tasks_org (being filled in)."""
