"""Templates: gallery (being filled in)."""
