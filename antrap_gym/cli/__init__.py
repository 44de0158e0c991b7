"""The `antrap` command line."""
