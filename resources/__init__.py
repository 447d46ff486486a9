"""Art, weights and books, loaded with ``importlib.resources`` (see ``gui/resources.py``)."""
