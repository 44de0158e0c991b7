"""Templates: calendar (being filled in)."""
