"""Tiles and games in words and colours, as every command draws them."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from bazar.core.rules import variant as find_variant
from bazar.core.tiles import Tile

TILE_STYLE = "bold"
DOUBLE_STYLE = "bold magenta"
FIT_STYLE = "bold green"


def tile_text(tile: Tile | str, style: str | None = None) -> Text:
    """A domino as ``[6|4]``; ``tile`` is a Tile or a board entry ``"6|4"`` (left half first)."""
    if isinstance(tile, Tile):
        a, b, double = tile.high, tile.low, tile.is_double
    else:
        if tile.startswith("#"):  # a double laid face down («Осёл»)
            return Text("[▒|▒]", style=style or DOUBLE_STYLE)
        left, _, right = tile.partition("|")
        a, b, double = int(left), int(right), left == right
    return Text(f"[{a}|{b}]", style=style or (DOUBLE_STYLE if double else TILE_STYLE))


def tiles_text(tiles: Sequence[Tile | str], sep: str = " ") -> Text:
    """Dominoes side by side, or a dash for none."""
    return Text(sep).join(tile_text(x) for x in tiles) if tiles else Text("—")


def tile_str(tile: Tile | str) -> str:
    """A tile as ``[6|4]``, high half first, without colour."""
    tile = Tile.parse(tile)
    return f"[{tile.high}|{tile.low}]"


def styled_tiles(text: str) -> Text:
    """``text`` with every ``[6|4]`` in it drawn as a tile."""
    out = Text(text)
    out.highlight_regex(r"\[\d+\|\d+\]", TILE_STYLE)
    return out


def title(name: str, lang: str) -> str:
    """A game's name in words: the description up to its colon."""
    game = find_variant(name)
    text = game.description_ru if lang == "ru" else game.description
    return text.split(":")[0].strip()
