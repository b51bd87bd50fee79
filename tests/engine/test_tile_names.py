"""Reading a tile's name (R1): the lookup of plain names gives what the full reading
gives, and refuses what it refuses."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dominoes.errors import UnreadableRecord
from dominoes.tiles import full_set, make_tile, parse_tile


@pytest.mark.parametrize("max_pip", [6, 9])
def test_every_name_in_either_order_reads_as_its_tile(max_pip):
    for tile in full_set(max_pip):
        for name in (f"{tile.high}-{tile.low}", f"{tile.low}-{tile.high}"):
            assert parse_tile(name, max_pip) == tile
        for name in (f" {tile} ", f"0{tile.high}-{tile.low}"):  # the full reading
            assert parse_tile(name, max_pip) == tile


@pytest.mark.parametrize("name", ["7-1", "9-9", "6-10", "a-b", "6-4-1", "6_4", "", "6-", 64, None])
def test_what_is_no_tile_of_double_six_is_refused(name):
    with pytest.raises(UnreadableRecord):
        parse_tile(name)


@given(st.text(alphabet="0123456789- ab", max_size=6))
def test_any_text_is_a_tile_of_the_set_or_refused(text):
    try:
        tile = parse_tile(text)
    except UnreadableRecord:
        return
    high, low = (int(part) for part in text.strip().split("-"))
    assert tile == make_tile(high, low) and tile in full_set(6)
