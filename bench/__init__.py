"""Measurements that print numbers (speed, node counts, latency, strength), each run from the
repository root with ``python -m bench.X``; none is part of the app. The results that stand,
with the command behind each, are in ``bench/STRENGTH.md``; ``peers`` finds the engines the
measurements play against (Sunfish in its own venv under ``bench/.peers/``, Stockfish).
"""
