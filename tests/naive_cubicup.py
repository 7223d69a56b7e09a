"""A second, deliberately naive cubicup written straight from RULES.md section 1.

It works on sets of GDL fact texts and answers with GDL action texts, scanning every position
of the pyramid each time, so that it shares nothing with models/cubicup.py but the rules.
"""

from __future__ import annotations

ORDER = ["yellow", "red", "green"]


def read(facts):
    """The cubes as {(x, y, z): colour}, the counts as {role: n}, and the controller."""
    cube, cubes, control = {}, {}, None
    for fact in facts:
        words = fact.strip("()").split()
        if words[0] == "cube":
            cube[(int(words[1]), int(words[2]), int(words[3]))] = words[4]
        elif words[0] == "cubes":
            cubes[words[1]] = int(words[2])
        else:
            control = words[1]
    return cube, cubes, control


def write(cube, cubes, control):
    facts = {f"(cube {x} {y} {z} {c})" for (x, y, z), c in cube.items()}
    facts |= {f"(cubes {p} {n})" for p, n in cubes.items()}
    facts.add(f"(control {control})")
    return frozenset(facts)


def positions():
    return [(x, y, z) for z in range(1, 8) for y in range(z, 8) for x in range(y, 8)]


def below(x, y, z):
    return [(x - 1, y - 1, z - 1), (x, y - 1, z - 1), (x, y, z - 1)]


def is_supported(cube, p):
    return all(q in cube for q in below(*p))


def cubicup_of(cube, p, role):
    return all(cube.get(q) == role for q in below(*p))


def open_cubicup_of_someone_else(cube, controller):
    return [
        p
        for p in positions()
        if p not in cube and any(cubicup_of(cube, p, q) for q in ORDER if q != controller)
    ]


def terminal(facts):
    return (7, 7, 7) in read(facts)[0]


def legal(facts, role):
    """The legal action texts of `role`, sorted."""
    cube, _, control = read(facts)
    if (7, 7, 7) in cube:
        return []
    if role != control:
        return ["noop"]
    empty_supported = [p for p in positions() if p not in cube and is_supported(cube, p)]
    targets = open_cubicup_of_someone_else(cube, control) or empty_supported
    return sorted(f"(put {x} {y} {z})" for x, y, z in targets)


def next_facts(facts, joint):
    """The next state's facts after a joint action of texts in role order."""
    cube, cubes, control = read(facts)
    action = joint[ORDER.index(control)]
    x, y, z = (int(word) for word in action.strip("()").split()[1:])
    others = [q for q in ORDER if q != control]
    someone_else_has_open_cubicup = bool(open_cubicup_of_someone_else(cube, control))
    stays = (cubes[control] != 1 and someone_else_has_open_cubicup) or all(
        cubes[q] == 0 for q in others
    )
    new_cube = dict(cube)
    new_cube[(x, y, z)] = control
    new_cubes = dict(cubes)
    new_cubes[control] -= 1
    new_control = control
    if not stays:
        i = ORDER.index(control)
        for step in (1, 2):
            candidate = ORDER[(i + step) % 3]
            if new_cubes[candidate] != 0:
                new_control = candidate
                break
    return write(new_cube, new_cubes, new_control)


def goals(facts):
    cube = read(facts)[0]
    owner = cube[(7, 7, 7)]
    for q in ORDER:
        if q != owner and cubicup_of(cube, (7, 7, 7), q):
            return (50, 50, 50)
    return tuple(100 if q == owner else 0 for q in ORDER)
