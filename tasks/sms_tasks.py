"""Templates: sms (being filled in)."""
