"""The state of one match: a plain record the engine folds actions into.

Outside the engine a State is opaque: read it only through
``app.rules.observe``. ``clone`` copies what ``apply`` mutates, so every
``apply`` returns a new object and leaves its input untouched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class State:
    """One position of a match.

    Shapes: ``hands`` one list of card codes per seat; ``trick`` the current
    trick as ``(seat, card)`` pairs in playing order; ``tricks`` the finished
    tricks of this deal as ``{"leader", "cards": [(seat, card)], "winner"}``;
    ``won`` the cards each team has taken this deal; ``scores`` match points
    per team; ``sheet`` one entry per finished (or void) deal; ``carried``
    the points left hanging for a later deal (rules/bridge-belote.md §7);
    ``extra`` a game's own fields for the current deal (reset by each deal).
    """

    game: str
    options: dict[str, Any]
    players: int
    dealer: int
    phase: str = "deal"  # deal | auction | play | over
    seq: int = 0
    deal_no: int = 0
    to_act: int | None = None
    deck: list[str] | None = None
    hands: list[list[str]] = field(default_factory=list)
    initial_hands: list[list[str]] = field(default_factory=list)
    turned: str | None = None
    stock: list[str] = field(default_factory=list)
    auction: list[dict[str, Any]] = field(default_factory=list)
    contract: dict[str, Any] | None = None
    declared: list[list[dict[str, Any]] | None] = field(default_factory=list)
    belote: list[dict[str, Any]] = field(default_factory=list)
    trick: list[tuple[int, str]] = field(default_factory=list)
    leader: int | None = None
    tricks: list[dict[str, Any]] = field(default_factory=list)
    won: list[list[str]] = field(default_factory=lambda: [[], []])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    scores: list[int] = field(default_factory=lambda: [0, 0])
    sheet: list[dict[str, Any]] = field(default_factory=list)
    winner: int | None = None
    carried: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    #: The engine's memo of work done on this very position (legal cards, declaration
    #: choices), so that ``apply`` does not redo what ``legal_actions`` just did. Keyed by
    #: what it depends on; never copied; not part of the position.
    cache: Any = field(default=None, compare=False, repr=False)

    def shallow(self) -> State:
        """A copy sharing every list and dict with this state.

        For the play phase, where the engine replaces (never mutates) what a
        card changes: ``hands`` (the outer list and the player's hand),
        ``trick``, ``tricks``, ``won``, ``tricks_won``, ``belote``, ``declared``.
        """
        # field by field rather than through __init__ (half the time: bots copy a state at
        # every card of their play-outs); keep in step with the fields above
        new: State = object.__new__(State)
        new.game = self.game
        new.options = self.options
        new.players = self.players
        new.dealer = self.dealer
        new.phase = self.phase
        new.seq = self.seq
        new.deal_no = self.deal_no
        new.to_act = self.to_act
        new.deck = self.deck
        new.hands = self.hands
        new.initial_hands = self.initial_hands
        new.turned = self.turned
        new.stock = self.stock
        new.auction = self.auction
        new.contract = self.contract
        new.declared = self.declared
        new.belote = self.belote
        new.trick = self.trick
        new.leader = self.leader
        new.tricks = self.tricks
        new.won = self.won
        new.tricks_won = self.tricks_won
        new.scores = self.scores
        new.sheet = self.sheet
        new.winner = self.winner
        new.carried = self.carried
        new.extra = self.extra
        new.cache = None
        return new

    def clone(self) -> State:
        """A copy that shares nothing ``apply`` mutates (finished records are shared)."""
        return State(
            game=self.game,
            options=self.options,
            players=self.players,
            dealer=self.dealer,
            phase=self.phase,
            seq=self.seq,
            deal_no=self.deal_no,
            to_act=self.to_act,
            deck=self.deck,
            hands=[list(h) for h in self.hands],
            initial_hands=self.initial_hands,
            turned=self.turned,
            stock=list(self.stock),
            auction=list(self.auction),
            contract=self.contract,
            declared=list(self.declared),
            belote=list(self.belote),
            trick=list(self.trick),
            leader=self.leader,
            tricks=list(self.tricks),
            won=[list(w) for w in self.won],
            tricks_won=list(self.tricks_won),
            scores=list(self.scores),
            sheet=list(self.sheet),
            winner=self.winner,
            carried=self.carried,
            extra=dict(self.extra),
        )
