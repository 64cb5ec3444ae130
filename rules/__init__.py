"""Pure game engines for Chancery: no Django, no clock, no global randomness."""
