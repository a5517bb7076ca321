"""The rows of the event loop's per-piece work arrays (`loop.work_arrays`), named.

The loop keeps its per-piece state in two 2-D arrays of n columns: `iw` (int64) and `fw`
(float64). Its largest callees (`predict.predict_near`, `predict_all`, `cross_cell`,
`gather_due`, `detect.touching.touching_system`, `resolve.impact.resolve_impact`) take the
whole array and read their rows by these names, not each row as an argument: numba passes an
array as a structure of 7-9 words, every one pushed on the stack at a call, and a box of pucks
spent up to a sixth of its samples pushing the rows of a handful of calls at every event
(bench/README.md, "Arguments pushed at every call": 6-10 % faster boxes without them).
"""

from __future__ import annotations

# iw: int rows
IW_SEG_OPEN = 0  # each piece's open segment (its row in the segment log)
IW_SINGLE_C = 1  # the code of its next single event (predict S_*)
IW_SINGLE_K = 2  # that event's feature index
IW_ROW_J = 3  # its row's earliest partner (-1: its single event)
IW_CROSS_C = 4  # the cell its next crossing enters
IW_NXT, IW_PRV, IW_CELL = 5, 6, 7  # the grid's cell lists: next, previous, its cell
IW_BUF, IW_BUF2 = 8, 9  # two scratch rows (neighbour lists)
IW_AFFECTED = 10  # the pieces an event touches (the impact's seeds, then its cluster)
IW_IN_CLUSTER = 11  # a piece's place in `affected` from 1 (0: not affected); a flag row
IW_SEEN = 12  # a flag row (rows to mend)
IW_PARENT, IW_LABEL = 13, 14  # the impact's union-find
N_IW_ROWS = 15

# fw: float rows
FW_SINGLE_T = 0  # each piece's next single event
FW_ROW_T = 1  # the earliest event of its row
FW_T_PRED = 2  # when its predictions were last made
FW_CROSS_T = 3  # its next cell crossing
FW_VIEW, FW_VIEW_END = 4, 9  # rows [FW_VIEW, FW_VIEW_END): its next change of motion and its
# path's box (predict V_*)
N_FW_ROWS = FW_VIEW_END

# the contacts of an event, a column each (up to 8 n + 8): cc (int64) and cw (float64) rows
CC_I, CC_J = 0, 1  # the piece, and the other piece (or -1 - feature: a rail or knuckle)
N_CC_ROWS = 2
CW_NX, CW_NY = 0, 1  # the unit normal from piece i toward the other body
CW_IMPULSE, CW_VPEAK = 2, 3  # the impact's normal impulse and largest approach speed
CW_GAP = 4  # the gap the contact starts from (0: touching, within TOUCH; detect.touching)
CW_RHO = 5  # a contact to a round body (a piece, a knuckle): the sum of the radii; 0: a rail
CW_PUSHED = 6  # 1: logged with no impulse: a join set a resting piece moving, or a bounce
N_CW_ROWS = 7
