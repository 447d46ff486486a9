"""Board widgets, one per game (see ``base`` for the API they share)."""
