"""``{% tile "6-4" %}``: a domino tile as inline SVG, drawn like the table page's tiles.

The geometry copies ``tileSvg`` in ``static/js/table/tiles.js`` (a 100x50 face, rounded corners,
a divider, pips at the same centres with the classes ``pip p<n>``), so the rules page's
pictures look like the tiles on the table and take the same CSS, pip colours included
(``.pips-coloured`` / ``.pips-black`` on an ancestor). Unlike the table page's decorative
tiles, these carry ``role="img"`` and ``aria-label="6-4"``: the picture is the text.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from dominoes.tiles import parse_tile

register = template.Library()

# Pip centres in a unit square, for 0..9: the same table as tiles.js's PIPS (7..9 for
# double-nine sets: a 3 x 3 grid, less the middle column's ends for 7 and the centre for 8).
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
    7: ((0.2, 0.2), (0.8, 0.2), (0.2, 0.5), (0.5, 0.5), (0.8, 0.5), (0.2, 0.8), (0.8, 0.8)),
    8: (
        (0.2, 0.2),
        (0.5, 0.2),
        (0.8, 0.2),
        (0.2, 0.5),
        (0.8, 0.5),
        (0.2, 0.8),
        (0.5, 0.8),
        (0.8, 0.8),
    ),
    9: (
        (0.2, 0.2),
        (0.5, 0.2),
        (0.8, 0.2),
        (0.2, 0.5),
        (0.5, 0.5),
        (0.8, 0.5),
        (0.2, 0.8),
        (0.5, 0.8),
        (0.8, 0.8),
    ),
}

#: Pip radius: the 7-9 grids are denser (as in tiles.js).
RADIUS = {count: 4.5 if count > 6 else 5 for count in PIPS}


def _num(value: float) -> str:
    return f"{value:g}"


def tile_svg(name: str, vertical: bool = False) -> str:
    """The SVG markup of tile ``name`` ("6-4", high pip first/left). Raises
    ``dominoes.errors.UnreadableRecord`` for anything that is not a double-nine tile (the
    largest set a profile plays, ``cuban``)."""
    tile = parse_tile(name, max_pip=max(PIPS))
    width, height = (50, 100) if vertical else (100, 50)
    if vertical:
        divider = mark_safe('<line x1="7" y1="50" x2="43" y2="50" class="divider"/>')
    else:
        divider = mark_safe('<line x1="50" y1="7" x2="50" y2="43" class="divider"/>')
    pips = []
    for half, count in enumerate((tile.high, tile.low)):
        ox, oy = (0, half * 50) if vertical else (half * 50, 0)
        for px, py in PIPS[count]:
            # Horizontal tiles lay the six in rows, as real tiles do (as in tiles.js).
            x, y = (px, py) if vertical else (py, px)
            pips.append((_num(ox + 4 + x * 42), _num(oy + 4 + y * 42), _num(RADIUS[count]), count))
    return format_html(
        '<svg viewBox="0 0 {w} {h}" class="tile {shape}" role="img" aria-label="{label}">'
        '<rect x="1.5" y="1.5" width="{rw}" height="{rh}" rx="7" class="face"/>{divider}{pips}'
        "</svg>",
        w=width,
        h=height,
        shape="vertical" if vertical else "horizontal",
        label=str(tile),
        rw=width - 3,
        rh=height - 3,
        divider=divider,
        pips=format_html_join("", '<circle cx="{}" cy="{}" r="{}" class="pip p{}"/>', pips),
    )


@register.simple_tag
def tile(name: str, vertical: bool = False) -> str:
    """``{% tile "6-4" %}`` (lying down) or ``{% tile "6-6" vertical=True %}`` (standing,
    as a double is placed crosswise on the line)."""
    return tile_svg(name, vertical=vertical)
