"""Templates: opentracks (being filled in)."""
