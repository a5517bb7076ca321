"""The cue strike: the standard point-contact model (cue tip on the ball's surface, no
friction at the tip, the ball's vertical velocity taken by the cloth).

The cue, of mass M and speed V along the unit direction d (aim phi, elevation theta: the butt
raised, d = (cos(theta) cos(phi), cos(theta) sin(phi), -sin(theta))), meets the ball at
r = a e_r + b e_u - c d, where e_r is right of d (horizontal), e_u = e_r x d is "up" across
the cue, a and b the tip offsets and c = sqrt(R^2 - a^2 - b^2). With tip restitution e_t the
impulse is
  J = (1 + e_t) V / (1/M + 1/m + (a^2 + b^2)/I),   I = 2/5 m R^2,
so v = J/m d (its horizontal part is kept) and w = J/I (r x d) = J/I (a e_u - b e_r):
a > 0 (right of centre) spins the ball counter-clockwise seen from above ("right english"),
b > 0 (above centre) gives topspin, b < 0 draw. A tip offset beyond the miscue limit
(MISCUE_LIMIT of the radius, Alciatore: about half the radius) is an error.

Squirt (cue-ball deflection; Shepard 2001, Alciatore TP A-31): with side english the ball
pushes the tip sideways during the contact, and the lateral momentum the tip's effective end
mass m_e takes sends the ball off the cue line, away from the side struck, by
  tan(alpha) = (5/2) s sqrt(1 - s^2) / (1 + m/m_e + (5/2)(1 - s^2)),   s = a / R,
so right english (a > 0) sends the ball left of the aim (counter-clockwise seen from above).
The velocity is turned by alpha; the spin is the point-contact model's (as pooltool's
InstantaneousPoint has it). m_e = 0 is a cue without squirt. Left out, for a decision against
measured spin/speed ratios: the end condition that gives TP A-31's formula (the tip and the
ball's contact point leave together) also gives less side spin per forward speed, rho / (rho +
(5/2)(1 - s^2)) of the point model's with rho = 1 + m/m_e (5.7 % less at half a tip with a
standard shaft), and a shaft deflects the same way under follow and draw.
"""

from __future__ import annotations

import math

from cuesim.tables.balls import CUE_END_MASS, CUE_MASS, MISCUE_LIMIT, TIP_RESTITUTION
from cuesim.tables.pieces import PieceSpec

__all__ = ["CUE_END_MASS", "CUE_MASS", "MISCUE_LIMIT", "TIP_RESTITUTION", "MiscueError",
           "squirt_angle", "strike"]


class MiscueError(ValueError):
    """A tip offset the cue cannot play."""


def squirt_angle(ball: PieceSpec, a: float, end_mass: float = CUE_END_MASS) -> float:
    """The squirt angle alpha (radians, > 0: left of the aim) of a tip offset a (metres, > 0:
    right of centre) from a cue of effective end mass `end_mass` (kg; 0: no squirt)."""
    if end_mass == 0.0 or a == 0.0:
        return 0.0
    s = a / ball.radius
    c2 = 1.0 - s * s
    return math.atan2(2.5 * s * math.sqrt(c2), 1.0 + ball.mass / end_mass + 2.5 * c2)


def strike(ball: PieceSpec, speed: float, phi: float, a: float = 0.0, b: float = 0.0,
           theta: float = 0.0, cue_mass: float = CUE_MASS,
           tip_restitution: float = TIP_RESTITUTION, end_mass: float = CUE_END_MASS
           ) -> tuple[float, float, float, float, float]:
    """(vx, vy, wx, wy, wz) of the ball after a cue at `speed` m/s hits it with offsets a
    (right) and b (up) in metres, aimed at phi, elevated by theta (radians); the velocity
    turned by the squirt of the cue's end mass (`squirt_angle`)."""
    r = ball.radius
    if math.hypot(a, b) > MISCUE_LIMIT * r + 1e-12:
        raise MiscueError(
            f"tip offset ({a * 1000:.1f}, {b * 1000:.1f}) mm is {math.hypot(a, b) / r:.2f} R "
            f"from the centre: beyond the miscue limit of {MISCUE_LIMIT} R "
            f"({MISCUE_LIMIT * r * 1000:.1f} mm)")
    if not 0.0 <= theta < math.pi / 2:
        raise ValueError(f"cue elevation must lie in [0, 90) degrees, got {math.degrees(theta)}")
    if not (math.isfinite(end_mass) and end_mass >= 0.0):
        raise ValueError(f"cue end mass must be a finite number >= 0 kg, got {end_mass!r}")
    m, inertia = ball.mass, ball.inertia
    j = (1.0 + tip_restitution) * speed / (1.0 / cue_mass + 1.0 / m + (a * a + b * b) / inertia)
    ct, st, cp, sp = math.cos(theta), math.sin(theta), math.cos(phi), math.sin(phi)
    d = (ct * cp, ct * sp, -st)
    e_r = (sp, -cp, 0.0)
    e_u = (e_r[1] * d[2] - e_r[2] * d[1], e_r[2] * d[0] - e_r[0] * d[2],
           e_r[0] * d[1] - e_r[1] * d[0])
    v = j / m
    w = [j / inertia * (a * e_u[k] - b * e_r[k]) for k in range(3)]
    alpha = squirt_angle(ball, a, end_mass)
    ca, sa = math.cos(alpha), math.sin(alpha)
    vx, vy = v * d[0], v * d[1]
    return ca * vx - sa * vy, sa * vx + ca * vy, w[0], w[1], w[2]
