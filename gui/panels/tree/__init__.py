"""The tree panel: the search tree drawn live in the engine dock ("Tree" tab).

``panel.TreePanel`` is the tab; ``textbook.TextbookView`` draws the top plies as the lecture
notes draw a game tree; ``node_details.NodeDetails`` shows one node; ``node_text`` names
nodes, values and cut-offs from the search's root state.
"""
