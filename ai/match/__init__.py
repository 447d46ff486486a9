"""Engine-against-engine matches (``plyground match``): players, openings, the runner,
statistics and game files. External programs (UCI, GTP, gnubg) are driven from here too."""
