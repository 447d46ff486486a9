"""The game review in the app: the runner that has the engine review a game in its own
worker pool (``runner``), the tab that shows the review (``panel``) and how marks look
(``style``). The review itself (which searches, how a move is marked) is ``ai.review`` and
``games.annotations``."""
