"""The table as plain text, for the environments' ``ansi`` render mode.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("block"), hands=[["6-6", "6-4"], ["4-1", "3-3"]],
...                   bazar=["2-2"], leader=0)
>>> rnd.push("6-6")
>>> print(ansi(rnd.view(1)))
block · round 1 · move 1 · seat_1 to move
scores: seat_0 0 · seat_1 0
ends: L=6 R=6
table (1): 6-6
hands: seat_0 1 · seat_1 2 · bazar 1
seat_1's hand: 3-3 4-1
last moves: seat_0 6-6

What is shown is the view's, never more: a seat's own hand, the others' sizes.
"""

from __future__ import annotations

from bazar.core.view import View

__all__ = ["LAST_MOVES", "RENDER_MODES", "ansi", "render"]

#: the render modes of the environments: ``ansi`` returns the text, ``human`` prints it
RENDER_MODES = ("ansi", "human")

#: how many of the last moves the text lists
LAST_MOVES = 8


def ansi(view: View) -> str:
    """The view as lines of text: the game, whose turn, the scores, the open ends, the
    tiles on the table, the hand sizes, the viewer's hand and the last moves."""
    rules = view.rules
    agents = [f"seat_{seat}" for seat in range(rules.players)]
    number = view.extra.get("number", 1)
    head = f"{rules.name} · round {number} · move {len(view.history)}"
    if view.outcome is not None:
        head += f" · over ({view.outcome.reason})"
    elif view.turn is not None:
        head += f" · {agents[view.turn]} to move"
    lines = [head]
    scores = view.scores.get("scores")
    if scores is not None:
        names = [f"side_{side}" for side in range(len(scores))] if rules.teams else agents
        pairs = zip(names, scores, strict=False)
        lines.append("scores: " + " · ".join(f"{name} {score}" for name, score in pairs))
    ends = " ".join(f"{end}={pip}" for end, pip in view.ends.items())
    lines.append(f"ends: {ends or '-'}")
    tiles = view.board.tiles()
    lines.append(f"table ({len(tiles)}): " + (" ".join(str(t) for t in tiles) or "-"))
    sizes = [f"{agents[seat]} {size}" for seat, size in enumerate(view.hand_sizes)]
    lines.append("hands: " + " · ".join([*sizes, f"bazar {view.bazar_size}"]))
    if view.seat is not None:
        hand = "hidden" if view.hand is None else " ".join(str(t) for t in view.hand) or "-"
        lines.append(f"{agents[view.seat]}'s hand: {hand}")
    last = [f"{agents[seat]} {move}" for seat, move, _ in view.history[-LAST_MOVES:]]
    lines.append("last moves: " + (" · ".join(last) or "-"))
    return "\n".join(lines)


def render(view: View, mode: str | None) -> str | None:
    """What an environment's ``render()`` gives in ``mode``: the text of ``view`` for
    ``ansi``; for ``human`` the text printed and None; nothing without a mode."""
    if mode is None:
        return None
    text = ansi(view)
    if mode == "human":
        print(text)
        return None
    return text
