"""Impact models: one module per pair of bodies. Each acts on the velocities and spins of the
objects, already advanced to the event time, and returns the normal approach speed."""
