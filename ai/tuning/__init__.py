"""Learning evaluation weights from games (development tools; the app only reads their output).

``texel``: logistic fitting of a linear EVAL to game results. The per-game commands that
gather positions and write ``resources/weights/<game>.json`` are ``tools/tune_<game>.py``.
"""
