"""Equipment: tables, pieces, coefficients and starting layouts, every number with its source."""

from cuesim.tables.balls import BallPhysics, ball_spec
from cuesim.tables.geometry import Hole, Knuckle, Rail, SensorCircle, SensorLine, TableGeometry
from cuesim.tables.layout import Layout, LayoutError, Piece
from cuesim.tables.novus import (
    NOVUS_SIDES,
    NovusPhysics,
    NovusTable,
    novus_doubles_layout,
    novus_singles_layout,
    novus_table,
)
from cuesim.tables.pieces import PieceSpec
from cuesim.tables.pool import PoolTable, pool_table
from cuesim.tables.racks import (
    cue_ball_in_kitchen,
    eight_ball_rack,
    nine_ball_rack,
    straight_pool_rack,
    straight_pool_rerack,
)

__all__ = [
    "PoolTable",
    "cue_ball_in_kitchen",
    "eight_ball_rack",
    "nine_ball_rack",
    "pool_table",
    "straight_pool_rack",
    "straight_pool_rerack",
    "BallPhysics",
    "Knuckle",
    "ball_spec",
    "Hole",
    "Layout",
    "LayoutError",
    "NOVUS_SIDES",
    "NovusPhysics",
    "NovusTable",
    "Piece",
    "PieceSpec",
    "Rail",
    "SensorCircle",
    "SensorLine",
    "TableGeometry",
    "novus_doubles_layout",
    "novus_singles_layout",
    "novus_table",
]
