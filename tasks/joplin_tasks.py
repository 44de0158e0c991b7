"""Templates: joplin (being filled in)."""
