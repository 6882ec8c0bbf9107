"""The shapes that cross the engine's face (docs/engine-face.md): actions, views, deal
summaries and deal scores.

They are TypedDicts, so plain dicts at run time: nothing is converted or checked when
they pass, and their JSON is what it always was. What comes from outside the engine (a
client's action, a paper sheet's summary) is any JSON object and is checked by the
engine itself, so ``apply`` and ``score_deal`` accept a ``Mapping[str, Any]`` too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, Required, TypedDict


class Action(TypedDict, total=False):
    """One move: ``{"type": "play", "card": "KH", "belote": true}``. Which keys go with
    which ``type`` is per game (docs/engine-face.md "Actions")."""

    type: Required[str]
    deck: list[str]  # deal (the server's): top card first
    card: str  # play
    belote: bool  # play: the first card of the belote (Belote, Bridge-Belote)
    bolot: bool  # play: the same in Bolot
    combinations: list[dict[str, Any]]  # declare
    suit: str  # take (round 2), trump (Botifarra)
    contract: str  # bid (Bridge-Belote)
    value: int | str  # bid (contrée): 80 ... 160, "capot" or "generale"
    swap: bool  # exchange (belote-2p)


#: What ``apply`` accepts: an Action, or any JSON object (refused with the reason if illegal).
ActionIn = Mapping[str, Any]


class View(TypedDict):
    """What ``observe(state, seat)`` returns: the common keys, then each game's own."""

    game: str
    options: dict[str, Any]
    players: int
    phase: str  # deal | auction | play | over
    seq: int
    seat: int | None
    dealer: int
    eldest: int
    to_act: int | None
    hand: list[str] | None
    hand_counts: list[int]
    turned: str | None
    stock_count: int
    auction: list[dict[str, Any]]
    contract: dict[str, Any] | None
    declarations: list[dict[str, Any]]
    belote: list[dict[str, Any]]
    trick: list[dict[str, Any]]
    leader: int | None
    last_trick: dict[str, Any] | None
    tricks_won: list[int]
    played: list[dict[str, Any]] | None
    trick_number: int
    scores: list[int]
    target: int | None
    sheet: list[dict[str, Any]]
    last_deal: dict[str, Any] | None
    winner: int | None
    legal_actions: list[Action]
    # Belote
    held: NotRequired[int]
    # belote-2p
    bottom_card: NotRequired[str | None]
    exchange: NotRequired[dict[str, Any] | None]
    card_points_won: NotRequired[list[int]]
    claim_totals: NotRequired[list[int] | None]
    # Bridge-Belote
    bidding: NotRequired[dict[str, Any] | None]
    hanging_points: NotRequired[int]
    no_exit_after_capot: NotRequired[bool]
    # Botifarra
    choice_step: NotRequired[str | None]
    trump_maker: NotRequired[int | None]
    delegated: NotRequired[bool]
    doublings: NotRequired[int]
    multiplier: NotRequired[int | None]
    hand_hidden: NotRequired[bool]
    hands_played: NotRequired[int]
    recorded_scores: NotRequired[list[int]]
    draw: NotRequired[bool]


class Summary(TypedDict, total=False):
    """One deal as ``score_deal`` takes it (rules/<game>.md §8): per team (per player in
    belote-3p) unless said."""

    contract: Required[dict[str, Any]]  # the game's summary_contract_keys
    card_points: list[int]
    tricks: list[int]
    last_trick_team: int
    last_trick_player: int  # belote-3p: per player (rules/belote-3p.md §8)
    declarations: list[list[dict[str, Any]]]  # the combinations each team declared
    belote: list[int]  # Bridge-Belote: belots per team; else 1 for the team that had it
    carried_in: int
    revoke_team: int | None


#: What ``score_deal`` accepts: a Summary, or one from a paper sheet (checked by the game).
SummaryIn = Mapping[str, Any]


class DealScore(TypedDict):
    """What ``score_deal`` returns (rules/<game>.md §7)."""

    points: list[int]
    outcome: str | None
    detail: dict[str, Any] | None
    carried_out: NotRequired[int]
