"""Reference templates (AndroidWorld's and AnTrap's) for markor: being written."""
