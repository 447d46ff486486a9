"""Panels beside the board: the engine's live view (engine panel, eval bar, eval graph),
the evaluation's feature breakdown and the search settings."""
