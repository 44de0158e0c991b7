"""Templates: broccoli (being filled in)."""
