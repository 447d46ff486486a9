"""Game-agnostic search: algorithms, the worker pool and the command line. No Qt here."""
