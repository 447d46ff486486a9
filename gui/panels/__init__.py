"""Panels beside the board: the move list (app), the engine panel, eval bar and graph, settings."""
