"""A tiny GTP Othello engine for the match tests: plays the first legal move.

Usage: ``fake_gtp.py [MODE] [AFTER]`` with the modes of ``fake_uci.py`` (``good``, ``crash``,
``illegal``, ``hang``) applied after ``AFTER`` genmove answers. Like GRhino it refuses
``play <colour> pass`` and passes by itself.
"""

import sys

from games.othello import OthelloState


def answer(text: str = "") -> None:
    print(f"= {text}".rstrip() + "\n", flush=True)


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    state = OthelloState.initial()
    answered = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command in ("boardsize", "komi", "time_settings"):
            answer()
        elif command == "clear_board":
            state = OthelloState.initial()
            answer()
        elif command == "play":
            if words[2].lower() == "pass":
                print("? syntax error\n", flush=True)
                continue
            forced = state.legal_moves()
            if len(forced) == 1 and state.move_name(forced[0]) == "pass":  # the mover must pass
                state.play(forced[0])
            state.play(state.parse_move(words[2]))
            answer()
        elif command == "genmove":
            if answered >= after and mode == "crash":
                sys.exit(3)
            if answered >= after and mode == "hang":
                continue
            answered += 1
            if answered > after and mode == "illegal":
                answer("A1")
                continue
            forced = state.legal_moves()
            if len(forced) == 1 and state.move_name(forced[0]) == "pass" and words[1][0] != state.PLAYER_NAMES[state.to_move()][0].lower():
                state.play(forced[0])  # the other side passed without a "play" command
            move = state.legal_moves()[0]
            name = state.move_name(move)
            state.play(move)
            answer(name.upper())
        elif command == "quit":
            answer()
            return
        else:
            print("? unknown command\n", flush=True)


if __name__ == "__main__":
    main()
