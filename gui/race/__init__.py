"""The algorithm race window (``dialog``), its chart (``chart``) and the bridge from the
race's thread to Qt signals (``runner``); the race itself is ``ai.race``."""

from gui.race.dialog import RaceDialog, open_race

__all__ = ["RaceDialog", "open_race"]
