"""Cubicup: three roles stack cubes on a pyramid (RULES.md section 1).

Positions (x y z) have z <= y <= x <= 7. Level 0 holds 36 neutral ground cubes; the roles fill
the 84 positions of levels 1..7, one per step. Internally a position is bit x + 8y + 64z of an
integer, so the supporters (x-1 y-1 z-1), (x y-1 z-1), (x y z-1) of bit b are bits b-73, b-72
and b-64: "supported" or "cubicup of P" for all positions at once is three shifts and two ands.

Where RULES.md leaves room, this module chooses (and `state_from_facts` enforces):
- the cube counts are facts of their own and may differ from 28 minus a role's placed cubes,
  but they must add up to the number of empty positions (RULES.md: "84 in all, exactly the
  number of empty positions"), and the role in control of an unfinished game has a cube left
  (both hold in every reachable state and keep `apply` within such states);
- every cube above level 0 stands on its three supporters;
- the goals of a state that is not terminal are 0 for every role (nobody owns (7 7 7)).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from gamecheck.errors import BadTermError
from gamecheck.gdl.terms import numeral, parse_term, term_text
from gamecheck.models.base import NEVER, Board, Game
from gamecheck.models.noop import NOOP, NOOP_ONLY, Noop

ROLES = ("yellow", "red", "green")
ROLE_INDEX = {role: index for index, role in enumerate(ROLES)}
OTHERS = ((1, 2), (2, 0), (0, 1))
"""The other roles of each role, in the order control passes to them."""
GROUND = "ground"
START_CUBES = 28
STEP_BOUND = 84
WIN, SHARED, LOSS = 100, 50, 0
TOP_LEVEL = 7


def bit_of(x: int, y: int, z: int) -> int:
    """The bit index of position (x y z)."""
    return x + 8 * y + 64 * z


def bit_position(bit: int) -> tuple[int, int, int]:
    """The (x y z) of a bit index."""
    return bit % 8, bit // 8 % 8, bit // 64


POSITIONS = tuple((x, y, z) for z in range(TOP_LEVEL + 1) for y in range(z, 8) for x in range(y, 8))
"""Every position of the pyramid, level by level."""
UPPER_POSITIONS = tuple(position for position in POSITIONS if position[2] >= 1)
GROUND_MASK = sum(1 << bit_of(*p) for p in POSITIONS if p[2] == 0)
UPPER_MASK = sum(1 << bit_of(*p) for p in UPPER_POSITIONS)
TOP_BIT = bit_of(7, 7, 7)
TOP_SUPPORT_MASK = sum(1 << bit_of(*p) for p in ((6, 6, 6), (7, 6, 6), (7, 7, 6)))
KEEP_MASK = sum(1 << bit_of(*p) for p in UPPER_POSITIONS if 2 <= p[2] < TOP_LEVEL)
"""The positions a role may fill keeping control: open cubicups (above level 1) but the top."""
POSITION_SET = frozenset(POSITIONS)
GROUND_FACTS = frozenset(f"(cube {x} {y} {z} {GROUND})" for x, y, z in POSITIONS if z == 0)


@dataclass(frozen=True, slots=True)
class Put:
    """The action `(put x y z)`: the controller puts one of its cubes at (x y z)."""

    x: int
    y: int
    z: int

    def __str__(self) -> str:
        return f"(put {self.x} {self.y} {self.z})"


PUT_AT_BIT = tuple(
    Put(*position) if position in UPPER_POSITIONS else None
    for position in (bit_position(bit) for bit in range(TOP_BIT + 1))
)
"""The action putting a cube at each bit index (None where there is no position)."""
ACTIONS_BY_TEXT = {str(action): action for action in (NOOP, *filter(None, PUT_AT_BIT))}


@dataclass(frozen=True, slots=True)
class CubicupState:
    """Each role's cubes as a bit mask, each role's cubes left, and the role in control.

    Masks, counts and `control` are in role order (yellow, red, green); ground cubes are
    implicit.
    """

    owned: tuple[int, int, int]
    cubes: tuple[int, int, int]
    control: int


class CubicupGame(Game):
    """Cubicup for the roles yellow, red and green."""

    name = "cubicup"
    roles = ROLES
    step_bound = STEP_BOUND

    def initial_state(self) -> CubicupState:
        return CubicupState((0, 0, 0), (START_CUBES,) * 3, 0)

    def legal(self, state: CubicupState, role: str) -> list[Put] | tuple[Noop, ...]:
        index = ROLE_INDEX[role] if role in ROLE_INDEX else self.role_index(role)
        owned = state.owned
        filled = owned[0] | owned[1] | owned[2]
        if filled >> TOP_BIT:
            return []
        if index != state.control:
            return NOOP_ONLY
        filled |= GROUND_MASK
        targets = others_cubicups(owned, index) & ~filled or supported(filled) & ~filled
        puts = []
        while targets:
            low = targets & -targets
            puts.append(PUT_AT_BIT[low.bit_length() - 1])
            targets ^= low
        return puts

    def apply(self, state: CubicupState, joint: tuple) -> CubicupState:
        mover = state.control
        put = joint[mover]
        owned = list(state.owned)
        filled = GROUND_MASK | owned[0] | owned[1] | owned[2]
        cubes = list(state.cubes)
        keep_for_cubicup = cubes[mover] != 1 and others_cubicups(owned, mover) & ~filled
        owned[mover] |= 1 << bit_of(put.x, put.y, put.z)
        cubes[mover] -= 1
        first, second = OTHERS[mover]
        if keep_for_cubicup or not (cubes[first] or cubes[second]):
            control = mover  # RULES.md (a) and (b)
        else:
            control = first if cubes[first] else second
        return CubicupState(tuple(owned), tuple(cubes), control)

    def is_terminal(self, state: CubicupState) -> bool:
        owned = state.owned
        return (owned[0] | owned[1] | owned[2]) >> TOP_BIT == 1

    def goals(self, state: CubicupState) -> tuple[int, int, int]:
        owned = state.owned
        top_owner = next((i for i, mask in enumerate(owned) if mask >> TOP_BIT & 1), None)
        if top_owner is None:
            return (LOSS,) * 3
        if any(
            mask & TOP_SUPPORT_MASK == TOP_SUPPORT_MASK
            for i, mask in enumerate(owned)
            if i != top_owner
        ):
            return (SHARED,) * 3
        return tuple(WIN if i == top_owner else LOSS for i in range(3))

    def steps_to_end(self, state: CubicupState) -> int:
        """The empty positions: every line fills them all, one a step, (7 7 7) last."""
        return empty_positions(state)

    def steps_to_win(self, state: CubicupState, team: Sequence[int]) -> int:
        """Exactly the empty positions (`steps_to_end`), or NEVER
        when no line is won for the team: for two roles or more (only one role ever scores
        100), or when its role cannot win (`can_win`)."""
        if len(team) != 1 or not can_win(state, team[0]):
            return NEVER
        return empty_positions(state)

    def steps_to_loss(self, state: CubicupState, team: Sequence[int]) -> int:
        """Exactly the empty positions, or NEVER when a team of one role wins in every line
        (`sure_win`)."""
        if len(team) == 1 and sure_win(state, team[0]):
            return NEVER
        return empty_positions(state)

    def state_facts(self, state: CubicupState) -> frozenset[str]:
        facts = set(GROUND_FACTS)
        for role, mask in zip(ROLES, state.owned, strict=True):
            facts.update(f"(cube {x} {y} {z} {role})" for x, y, z in positions_of(mask))
        facts.update(f"(cubes {role} {n})" for role, n in zip(ROLES, state.cubes, strict=True))
        facts.add(f"(control {ROLES[state.control]})")
        return frozenset(facts)

    def state_from_facts(self, facts: Iterable[str]) -> CubicupState:
        colours: dict[tuple[int, int, int], str] = {}
        cubes: dict[str, int] = {}
        controls: set[str] = set()
        for fact in facts:
            kind, value = read_fact(fact)
            if kind == "cube":
                position, colour = value
                if colours.setdefault(position, colour) != colour:
                    raise BadTermError(f"position {position_text(position)} holds two cubes")
            elif kind == "cubes":
                role, count = value
                if cubes.setdefault(role, count) != count:
                    raise BadTermError(f"the cube count of {role} is given twice")
            else:
                controls.add(value)
        return build_state(colours, cubes, controls)

    def action_text(self, action: Put | Noop) -> str:
        return str(action)

    def parse_action(self, role: str, text: str) -> Put | Noop:
        self.role_index(role)
        action = ACTIONS_BY_TEXT.get(term_text(parse_term(text)))
        if action is None:
            raise BadTermError(
                f"{text} is not a cubicup action: (put x y z) with 1 <= z <= y <= x <= 7, or noop"
            )
        return action

    def picture(self, state: CubicupState) -> str:
        letters = {}
        for role, mask in zip(ROLES, state.owned, strict=True):
            letters.update((position, role[0].upper()) for position in positions_of(mask))
        counts = ", ".join(f"{role} {n}" for role, n in zip(ROLES, state.cubes, strict=True))
        lines = [f"control {ROLES[state.control]}; cubes left: {counts}"]
        lines.append("(levels 1..7 from the bottom; Y/R/G = owner, . = empty; level 0 is ground)")
        for z in range(1, TOP_LEVEL + 1):
            lines.append(f"level {z}")
            for y in range(7, z - 1, -1):
                cells = [letters.get((x, y, z), ".") if x >= y else " " for x in range(z, 8)]
                lines.append(f"  y{y}  " + " ".join(cells).rstrip())
            lines.append("      " + " ".join(str(x) for x in range(z, 8)) + "  (x)")
        return "\n".join(lines)

    def board(self, state: CubicupState) -> Board:
        """Each level from the bottom, y = 7 at the top; a level's positions form a
        staircase (x >= y), the other cells of its square are no cells."""
        owners = {}
        for role, mask in zip(ROLES, state.owned, strict=True):
            owners.update((position, role) for position in positions_of(mask))
        grids = []
        for z in range(1, TOP_LEVEL + 1):
            rows = tuple(
                tuple((("", owners.get((x, y, z))) if x >= y else None) for x in range(z, 8))
                for y in range(7, z - 1, -1)
            )
            grids.append((f"level {z}", rows))
        return Board(tuple(grids), f"{ROLES[state.control]} to play")


def held_up(mask: int) -> tuple[int, int, int]:
    """The mask moved onto the positions each of its positions supports, one shift for each
    of the three supporters a position has: (x-1 y-1 z-1), (x y-1 z-1), (x y z-1)."""
    return mask << 64, mask << 72, mask << 73


def supported(filled: int) -> int:
    """The mask of positions above level 0 whose three supporters are all in `filled`."""
    first, second, third = held_up(filled)
    return first & second & third & UPPER_MASK


def others_cubicups(owned: list[int] | tuple[int, ...], role: int) -> int:
    """The mask of cubicups (open or filled) of the roles other than `role`."""
    first, second = OTHERS[role]
    return supported(owned[first]) | supported(owned[second])


# -- who can still win: the forced-win search's bounds ---------------------------------------
# Every game fills all 84 positions, (7 7 7) last (its support cone is the whole pyramid), so
# from a state with E empty positions every line takes exactly E steps. The cube counts add up
# to E and only a role's own moves lower its count, so every role places all its cubes: the
# role that fills (7 7 7) is the one whose cubes run out last, and it wins unless (6 6 6),
# (7 6 6), (7 7 6) all belong to one other role.


def empty_positions(state: CubicupState) -> int:
    """The number of empty positions: the steps every line of play from `state` takes."""
    owned = state.owned
    return (UPPER_MASK & ~(owned[0] | owned[1] | owned[2])).bit_count()


def can_win(state: CubicupState, role: int) -> bool:
    """False when `role` wins (goal 100) in no line of play from the non-terminal `state`:
    the supporters of (7 7 7) all belong to one other role, or some role with cubes outlasts
    it whatever happens (`may_outlast` fails)."""
    owned, cubes = state.owned, state.cubes
    ahead = (cubes[role], place(state, role))
    for other in OTHERS[role]:
        if owned[other] & TOP_SUPPORT_MASK == TOP_SUPPORT_MASK:
            return False
        later = cubes[other] and (cubes[other], place(state, other)) > ahead  # without keeps
        if later and not may_outlast(state, role, other, keep_bound(state, other)):
            return False
    return True


def sure_win(state: CubicupState, role: int) -> bool:
    """True when `role` wins (goal 100) in every line of play from the non-terminal `state`:
    no other role with cubes may outlast it (`may_outlast`), so it fills (7 7 7), and a
    supporter of (7 7 7) is its own or two are of different colours."""
    owned, cubes = state.owned, state.cubes
    colours = {i for i, mask in enumerate(owned) if mask & TOP_SUPPORT_MASK}
    if role not in colours and len(colours) < 2:
        return False
    keeps = keep_bound(state, role)
    return not any(may_outlast(state, other, role, keeps) for other in OTHERS[role] if cubes[other])


def may_outlast(state: CubicupState, x: int, y: int, y_keeps: int) -> bool:
    """False when X cannot place a cube after Y's last (Y has cubes and keeps control at most
    `y_keeps` more times): X may only if (c_X, place of X) > (c_Y - k_Y, place of Y).

    Proof. A *turn* is a run of steps with one controller; a *keep* is a move after which the
    mover keeps control by rule (a). While X and Y both have cubes their turns alternate
    (control passes to the next role in the order that has cubes, rule (b) cannot apply),
    the first being that of the one with the lower place (0: the controller, whose current
    turn counts). Y's last cube is never a keep, so each of Y's turns ends with a move that
    is not a keep: Y has c_Y - k_Y turns. Each of X's turns takes a cube. So if X places a
    cube after Y's last, X has at least c_Y - k_Y turns, one more if its place is lower."""
    cubes = state.cubes
    return (cubes[x], place(state, x)) > (cubes[y] - y_keeps, place(state, y))


def place(state: CubicupState, role: int) -> int:
    """The role's place in the order of turns from the controller's (0)."""
    return (role - state.control) % 3


def keep_bound(state: CubicupState, role: int) -> int:
    """An upper bound on the role's keeps (`may_outlast`) from now on. A keep fills an open
    cubicup of another role (the only legal puts then), a position above level 1 and below
    (7 7 7), which is filled last, by a role's last cube: so at most the empty such positions
    that can still become another role's cubicup (no filled supporter of another colour than
    that role's, no more empty ones than that role has cubes left: only its own cubes can
    fill them), and never the role's last cube."""
    cubes = state.cubes
    if cubes[role] <= 1:
        return 0
    owned = state.owned
    filled = GROUND_MASK | owned[0] | owned[1] | owned[2]
    empty = UPPER_MASK & ~filled
    one, two, three = held_up(empty)
    beyond = (  # the positions with more empty supporters than a role has cubes left
        one | two | three,
        (one & two) | (one & three) | (two & three),
        one & two & three,
    )
    possible = 0
    for other in OTHERS[role]:
        foreign = filled & ~owned[other]
        first, second, third = held_up(foreign)
        blocked = first | second | third
        if cubes[other] < 3:
            blocked |= beyond[cubes[other]]
        possible |= KEEP_MASK & empty & ~blocked
    return min(possible.bit_count(), cubes[role] - 1)


def set_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def positions_of(mask: int) -> Iterator[tuple[int, int, int]]:
    """The positions (x y z) whose bits are set in `mask`."""
    for bit in set_bits(mask):
        yield bit_position(bit)


def position_text(position: tuple[int, int, int]) -> str:
    """A position as GDL text, e.g. `(7 7 7)`."""
    return "({} {} {})".format(*position)


def read_fact(fact: str) -> tuple[str, object]:
    """One cubicup fact as ("cube", (position, colour)), ("cubes", (role, n)) or ("control", P)."""
    term = parse_term(fact)
    if isinstance(term, tuple):
        match term:
            case ("cube", x, y, z, colour) if colour in (*ROLES, GROUND):
                position = (numeral(x), numeral(y), numeral(z))
                if position in POSITION_SET:
                    return "cube", (position, colour)
            case ("cubes", role, count) if role in ROLES:
                n = numeral(count)
                if n is not None and n <= START_CUBES:
                    return "cubes", (role, n)
            case ("control", role) if role in ROLES:
                return "control", role
    raise BadTermError(
        f"{fact} is not a cubicup fact: (cube x y z C) with 0 <= z <= y <= x <= 7, "
        f"(cubes P n) with 0 <= n <= {START_CUBES}, or (control P)"
    )


def build_state(
    colours: dict[tuple[int, int, int], str], cubes: dict[str, int], controls: set[str]
) -> CubicupState:
    """The state of checked facts; BadTermError if they are incomplete or contradictory."""
    for position in POSITIONS:
        colour = colours.get(position)
        x, y, z = position
        if z == 0 and colour is None:
            raise BadTermError(f"level 0 is all ground but (cube {x} {y} 0 ground) is missing")
        if colour is not None and (z == 0) != (colour == GROUND):
            raise BadTermError(
                f"{position_text(position)} holds a {colour} cube; ground cubes lie on level 0, "
                "the roles' cubes on levels 1..7"
            )
        if z > 0 and colour is not None:
            for support in ((x - 1, y - 1, z - 1), (x, y - 1, z - 1), (x, y, z - 1)):
                if support not in colours:
                    raise BadTermError(
                        f"the cube at {position_text(position)} floats: "
                        f"{position_text(support)} below it is empty"
                    )
    missing = [role for role in ROLES if role not in cubes]
    if missing:
        raise BadTermError(f"a cubicup state needs (cubes P n) for {' and '.join(missing)}")
    if len(controls) != 1:
        raise BadTermError(f"a cubicup state needs one (control P) fact, not {len(controls)}")
    empty = len(POSITIONS) - len(colours)
    if sum(cubes.values()) != empty:
        raise BadTermError(
            f"the roles hold {sum(cubes.values())} cubes in all but {empty} positions are empty"
        )
    (controller,) = controls
    if empty and not cubes[controller]:
        raise BadTermError(f"{controller} is in control but has no cube left")
    owned = [0, 0, 0]
    for position, colour in colours.items():
        if colour != GROUND:
            owned[ROLES.index(colour)] |= 1 << bit_of(*position)
    return CubicupState(tuple(owned), tuple(cubes[role] for role in ROLES), ROLES.index(controller))


def make_game() -> CubicupGame:
    """Cubicup (it has no variants)."""
    return CubicupGame()
