"""A ground rule sheet as a propositional transition system, its CNF and CP-SAT unrollings,
invariants proved on them and random playouts of the ground circuit."""
