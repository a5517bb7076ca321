"""Event detection: the time of the next event of each family, as a root of a polynomial.

Tolerances shared by every detector:
TOUCH    a gap this small (m) is a contact;
V_TOUCH  a normal speed this small (m/s) is no approach: touching pieces that drift together
         slower than this stay a resting contact (overlap < V_TOUCH * shot time < 1e-9 m);
A resting contact is pressed (and resolved at once) when, left alone, it would overlap by
more than TOUCH before the relative motion turns.
"""

TOUCH = 1e-9
V_TOUCH = 1e-10
