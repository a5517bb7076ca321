"""Event detection: the time of the next event of each family, as a root of a polynomial.

Tolerances shared by every detector:
TOUCH    a gap this small (m) is a contact;
V_TOUCH  a normal speed this small (m/s) is no approach: touching pieces that drift together
         slower than this stay a resting contact (overlap < V_TOUCH * shot time < 1e-9 m);
A resting contact is pressed (and resolved at once) when, left alone, it would overlap by
more than TOUCH before the relative motion turns.
REACH    an impact takes in every piece, rail and knuckle within REACH times its largest
         compression delta* (detect.touching): a gap smaller than the compression is
         physically touching.
GRAZE    a straight path whose line passes this near (m) a hole circle's edge, inside or
         out, grazes it, and is captured where it passes nearest the hole's centre
         (detect.holes).
"""

TOUCH = 1e-9
V_TOUCH = 1e-10
# how near a straight path's line must pass a hole circle's edge to graze it, a round-off band:
# a puck frozen to a rail passes a novus corner hole exactly tangent to its circle (the hole's
# edge is a puck radius, 15 mm, from both rails: novus 24.1), so the last bit of the puck's
# distance from the rail decided a capture, and mirror images of one shot differed. A graze
# captures (the puck's centre over the edge; the soft reference, whose pucks press into the
# rail, drops them too: tests/test_soft_reference.py, rows along a rail struck end-on);
# tests/test_round_off_symmetry.py. 10x either way changes nothing visible there.
GRAZE = 1e-9
# in largest compressions delta* of the impact's fastest due contact (sim.resolve.impact_step
# contact_time_scale x v): a piece nearer than this takes part in the impact from its gap, one
# farther is a later binary impact. A piece struck by an impact has moved at most about pi
# delta* when that contact ends (a linear law, the striking piece far heavier; Hertz 2.94), so
# a gap beyond that closes after the contact, and both ways give the same outcome (a contact
# that starts from a gap and has not touched ends nothing, resolve.multi_impact); a tenth of
# REACH still covers it. The soft reference's row of pucks passes from the touching outcome to
# the chain's between gaps of 0.01 and 1 delta* (bench/README.md, "A gap smaller than the
# compression"). Bounded by detect.grid's REACH_FRACTION of the contact distance. 10x either
# way changes nothing visible (tests/test_impact_reach.py), with one known exception: a gap the
# first wave leaves open that closes inside a later phase of the same impact, after a touching
# contact closed again (bench/strike_clusters.py --pieces balls, seed 307: bench/README.md)
REACH = 32.0
