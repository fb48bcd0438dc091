"""Tiles and games in words and colours, as every command draws them."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.text import Text

from bazar import i18n
from bazar.core.board import Laid
from bazar.core.rules import variant as find_variant
from bazar.core.tiles import Tile

TILE_STYLE = "bold"
DOUBLE_STYLE = "bold magenta"
FIT_STYLE = "bold green"


def tile_text(tile: Tile | Laid, style: str | None = None, face_down: bool = False) -> Text:
    """A domino as ``[6|4]``: a Tile high half first, a tile on the table as it lies; one
    laid face down (a closed double, «Осёл») as ``[▒|▒]``."""
    if face_down:
        return Text("[▒|▒]", style=style or DOUBLE_STYLE)
    a, b = (tile.first, tile.second) if isinstance(tile, Laid) else (tile.high, tile.low)
    return Text(f"[{a}|{b}]", style=style or (DOUBLE_STYLE if a == b else TILE_STYLE))


def tiles_text(
    tiles: Sequence[Tile | Laid], sep: str = " ", face_down: Collection[Tile] = ()
) -> Text:
    """Dominoes side by side, those in ``face_down`` face down, or a dash for none."""
    if not tiles:
        return Text("—")
    return Text(sep).join(
        tile_text(x, face_down=(x.tile if isinstance(x, Laid) else x) in face_down) for x in tiles
    )


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
    return i18n.description(find_variant(name).name, lang).split(":")[0].strip()
