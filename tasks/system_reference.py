"""Reference templates (AndroidWorld's and AnTrap's) for system: being written."""
