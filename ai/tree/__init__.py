"""The search tree as a search walks it: recorded in the process that searches
(``ai.tree.recorder``), sent in batches (``TreeBatch``), put together wherever it is shown
(``SearchTree``), and written as JSON or Graphviz (``ai.tree.export``)."""

from ai.tree.model import (
    ROOT_PARENT,
    Cut,
    NodeEntry,
    NodeExit,
    NodeKind,
    PassKind,
    SearchTree,
    TreeBatch,
    TreeOptions,
    TreePass,
)

__all__ = [
    "ROOT_PARENT",
    "Cut",
    "NodeEntry",
    "NodeExit",
    "NodeKind",
    "PassKind",
    "SearchTree",
    "TreeBatch",
    "TreeOptions",
    "TreePass",
]
