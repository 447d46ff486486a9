"""Programs that build the assets the app ships, run from the repository root with ``python -m tools.X``.

Tuners and trainers (``tune_<game>``, ``train_backgammon``, ``chess_net``/``chess_net_train``),
labelers (``othello_label``, ``othello_selfplay``, the ``gnubg_*`` scripts that run inside GNU
Backgammon), the opening books (``chess_book``, ``othello_book``, ``chess_book_check``), the
checkers endgame databases (``checkers_endgame``), the gnubg-labelled cube decisions the tests
read (``backgammon_cube``, ``backgammon_match_cube``) and the screenshots in ``docs/screens/`` (``gui_*``). None is part of the app; the app reads
their output from ``resources/``.
"""
