"""A tiny GTP Othello engine for the match tests: plays the first legal move.

Usage: ``fake_gtp.py [MODE] [AFTER]`` (modes: ``fake_engine.py``; a move request is
``genmove``; its illegal move is A1). Like GRhino it refuses ``play <colour> pass`` and
passes by itself.
"""

import sys

from fake_engine import QUIT, Script, serve

from games.othello import OthelloState


def answer(text: str = "") -> None:
    print(f"= {text}".rstrip() + "\n", flush=True)


def main() -> None:
    script = Script(sys.argv)
    state = OthelloState.initial()

    def clear_board(_: list[str]) -> None:
        nonlocal state
        state = OthelloState.initial()
        answer()

    def play(words: list[str]) -> None:
        if words[2].lower() == "pass":
            print("? syntax error\n", flush=True)
            return
        forced = state.legal_moves()
        if len(forced) == 1 and state.move_name(forced[0]) == "pass":  # the mover must pass
            state.play(forced[0])
        state.play(state.parse_move(words[2]))
        answer()

    def genmove(words: list[str]) -> None:
        how = script.next_answer()
        if how == "illegal":
            answer("A1")
        elif how == "good":
            forced = state.legal_moves()
            if len(forced) == 1 and state.move_name(forced[0]) == "pass" and words[1][0] != state.PLAYER_NAMES[state.to_move()][0].lower():
                state.play(forced[0])  # the other side passed without a "play" command
            move = state.legal_moves()[0]
            name = state.move_name(move)
            state.play(move)
            answer(name.upper())

    def quit_(_: list[str]) -> object:
        answer()
        return QUIT

    serve(
        {
            "boardsize": lambda _: answer(),
            "komi": lambda _: answer(),
            "time_settings": lambda _: answer(),
            "clear_board": clear_board,
            "play": play,
            "genmove": genmove,
            "quit": quit_,
        },
        unknown=lambda _: print("? unknown command\n", flush=True),
    )


if __name__ == "__main__":
    main()
