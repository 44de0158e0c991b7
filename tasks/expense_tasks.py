"""Templates: expense (being filled in)."""
