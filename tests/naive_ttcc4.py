"""A second, deliberately naive ttcc4 written straight from RULES.md section 2.

It works on sets of GDL fact texts and answers with GDL action texts, scanning the whole board
for every question, so that it shares nothing with models/ttcc4.py but the rules.
"""

from __future__ import annotations

ORDER = ["red", "yellow", "blue"]
START = {
    "redPawn": (1, 5),
    "redChecker": (1, 4),
    "redKnight": (1, 3),
    "yellowPawn": (3, 1),
    "yellowChecker": (4, 1),
    "yellowKnight": (5, 1),
    "bluePawn": (7, 3),
    "blueChecker": (7, 4),
    "blueKnight": (7, 5),
}


def read(facts):
    """The pieces as {(x, y): name}, the controller and the step."""
    cell, control, step = {}, None, None
    for fact in facts:
        words = fact.strip("()").split()
        if words[0] == "cell":
            cell[(int(words[1]), int(words[2]))] = words[3]
        elif words[0] == "control":
            control = words[1]
        else:
            step = int(words[1])
    return cell, control, step


def write(cell, control, step):
    facts = {f"(cell {x} {y} {name})" for (x, y), name in cell.items()}
    return frozenset(facts | {f"(control {control})", f"(step {step})"})


def owner(name):
    for role in ORDER:
        if name.startswith(role):
            return role
    raise ValueError(name)


def on_board(x, y):
    return 2 <= x <= 6 and 2 <= y <= 6


def lines():
    centre = range(3, 6)
    result = [[(x, y) for x in centre] for y in centre]
    result += [[(x, y) for y in centre] for x in centre]
    result.append([(3, 3), (4, 4), (5, 5)])
    result.append([(3, 5), (4, 4), (5, 3)])
    return result


def line_roles(cell):
    return {
        role
        for role in ORDER
        for line in lines()
        if all(p in cell and owner(cell[p]) == role for p in line)
    }


def terminal(facts):
    cell, _, step = read(facts)
    return step == 31 or bool(line_roles(cell))


def goals(facts):
    winners = line_roles(read(facts)[0])
    return tuple(100 if role in winners else 0 for role in ORDER)


def legal(facts, role):
    """The legal action texts of `role`, sorted."""
    cell, control, _ = read(facts)
    if terminal(facts):
        return []
    actions = ["noop"]
    if role != control:
        return actions

    def empty(p):
        return p not in cell

    def enemy(p):
        return p in cell and owner(cell[p]) != role

    for x in (3, 4, 5):
        if empty((x, 6)):
            actions.append(f"(drop {x})")
    for (x, y), name in list(cell.items()):
        if name == role + "Pawn":
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    t = (x + dx, y + dy)
                    if not on_board(*t):
                        continue
                    orthogonal = abs(dx) + abs(dy) == 1
                    diagonal = abs(dx) == 1 and abs(dy) == 1
                    if (orthogonal and empty(t)) or (diagonal and enemy(t)):
                        actions.append(f"(pawnMove {x} {y} {t[0]} {t[1]})")
        if name == role + "Knight":
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    t = (x + dx, y + dy)
                    if {abs(dx), abs(dy)} == {1, 2} and on_board(*t) and (empty(t) or enemy(t)):
                        actions.append(f"(knightMove {x} {y} {t[0]} {t[1]})")
        if name == role + "Checker":
            for dx in (-1, 1):
                for dy in (-1, 1):
                    t = (x + dx, y + dy)
                    if on_board(*t) and empty(t):
                        actions.append(f"(checkerMove {x} {y} {t[0]} {t[1]})")
                    beyond = (x + 2 * dx, y + 2 * dy)
                    if enemy(t) and on_board(*beyond) and empty(beyond):
                        actions.append(f"(jump {x} {y} {t[0]} {t[1]} {beyond[0]} {beyond[1]})")
    return sorted(actions)


def next_facts(facts, joint):
    """The next state's facts after a joint action of texts in role order."""
    cell, control, step = read(facts)
    action = joint[ORDER.index(control)]
    new = dict(cell)
    words = action.strip("()").split()
    if words[0] == "drop":
        x, y = int(words[1]), 6
        while y > 2 and (x, y - 1) not in new:
            y -= 1
        new[(x, y)] = control + "Disc"
    elif words[0] != "noop":
        numbers = [int(word) for word in words[1:]]
        origin, destination = tuple(numbers[0:2]), tuple(numbers[-2:])
        captured_at = tuple(numbers[2:4]) if words[0] == "jump" else destination
        captured = new.pop(captured_at, None)
        new[destination] = new.pop(origin)
        if captured is not None and not captured.endswith("Disc"):
            new[START[captured]] = captured
    next_control = ORDER[(ORDER.index(control) + 1) % 3]
    return write(new, next_control, step + 1)
