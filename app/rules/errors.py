"""The one error the engine raises, and the table of its codes.

Every refusal of the engine has a ``code`` (a short stable string, e.g.
``"must_follow_suit"``) and ``params`` (plain values: seat numbers from 0, card
codes like ``"9o"``, suit letters, numbers, option names). :data:`MESSAGES` maps each
code to its English template; ``str(exc)`` is that template filled in, the sentence
the JSON API returns. The pages translate the code instead (app/web/errors.py).

Template fields may carry a format spec that names how the value is written in
English: ``{card:card}`` ("10e" -> "10 of espases"), ``{suit:suit}`` ("c" ->
"copes"), ``{suits:suits}`` (["o", "c"] -> "oros, copes"), ``{suits:named_suits}``
(["o"] -> "o (oros)"). A refusal of play may add the param ``held`` (a card code):
the sentence then ends with ": you hold the <card>".
"""

from __future__ import annotations

import string
from typing import Any

from app.rules.cards import SUIT_NAMES, card_name

MESSAGES: dict[str, str] = {
    # the obligations of play (obligations.py, botifarra_play.py, belote_2p.py)
    "must_follow_suit": "you must follow suit in {suit:suit}",
    "must_overtake_trumps": "trumps were led: you must overtake",
    "must_trump": "you cannot follow suit, so you must trump",
    "must_over_trump": "you must over-trump",
    "must_still_trump": "you cannot over-trump, but you must still trump",
    "must_beat": "you must beat the opponents' {card:card}",
    "must_over_trump_to_beat": (
        "you cannot follow {suit:suit}, so you must over-trump the opponents' {card:card}"
    ),
    "must_trump_to_beat": (
        "you cannot follow {suit:suit}, so you must trump to beat the opponents' {card:card}"
    ),
    "partner_winning_follow": (
        "your partner is winning: follow {suit:suit} with a counting card "
        "(9, 1, 12, 11, 10) or your lowest {suit:suit}"
    ),
    "partner_winning_discard": (
        "your partner is winning and you cannot follow {suit:suit}: play a counting card "
        "(9, 1, 12, 11, 10) or the lowest card of a suit"
    ),
    "must_follow_lowest": (
        "you cannot beat the opponents' {card:card}, so you must follow with your lowest {suit:suit}"
    ),
    "must_follow_lowest_or_counting": (
        "you cannot beat the opponents' {card:card}, so you must follow with your lowest "
        "{suit:suit} (or, as second player, a counting card)"
    ),
    "must_play_lowest": (
        "you can neither follow {suit:suit} nor beat the opponents' {card:card}, "
        "so you must play the lowest card of a suit"
    ),
    "must_play_lowest_or_counting": (
        "you can neither follow {suit:suit} nor beat the opponents' {card:card}, "
        "so you must play the lowest card of a suit (or, as second player, a counting card)"
    ),
    # playing a card (core.py, bridge_belote.py)
    "card_not_held": "you do not hold the {card}",
    "name_a_card": "name a card to play",
    "belote_flag": "{key} is true or false",
    "belote_first_card": "you can say {key} only with the first of the two trump {ranks} in your hand",
    "belot_not_discard": (
        "a belot is announced only with a card that is led or follows suit, not with a discard"
    ),
    # options, deal and turn (core.py, api.py)
    "unknown_game": "unknown game {game!r}; games: {games}",
    "unknown_option": "unknown option {option!r} for {game}",
    "option_bool": "option {option} must be true or false",
    "option_int": "option {option} must be a whole number from {lo} to {hi}",
    "option_choice": "option {option} must be one of {choices}",
    "dealer_range": "the dealer must be a seat from 0 to {last}",
    "no_such_seat": "there is no seat {seat!r}",
    "action_object": "an action is a JSON object with a type",
    "match_over": "the match is over",
    "not_dealt": "the cards have not been dealt yet",
    "already_dealt": "the cards are already dealt",
    "deck_once": "the deck must list each of the {n} cards exactly once",
    "declare_first": "declare your combinations (or none) before your first card",
    "time_to_play": "you cannot {kind!r} now: it is time to play a card",
    "declare_once": "you can declare only once, before your first card of trick 1",
    "combinations_list": "combinations must be a list of declarations",
    "declaration_not_held": (
        "you do not hold that declaration (a run is declared whole, a card counts once)"
    ),
    "contract_object": "contract must be an object",
    # the auctions (turned.py, belote_2p.py, bridge_belote_auction.py, botifarra_choice.py)
    "take_or_pass": "during the auction you take or pass",
    "first_round_turned_suit": "in the first round you can only take the turned card's suit",
    "second_round_suits": "in the second round name one of {suits:suits}",
    "no_seven_to_exchange": "there is no 7 of trumps to exchange now",
    "exchange_first": "first say whether you exchange your 7 of trumps for the turned card",
    "claim_only_in_play": 'you can say "I\'m done" only during the play',
    "claim_not_played": '"I\'m done" is not played at this table',
    "claim_after_points": (
        'you can say "I\'m done" only after winning a trick with points in it, '
        "and not at the last trick"
    ),
    "auction_calls": "during the auction you bid, pass, double (contra) or redouble (recontra)",
    "name_a_contract": (
        "name a contract: C, D, H, S (a trump suit), NT (no trumps) or AT (all trumps)"
    ),
    "bid_locked": "the bid is doubled and nobody may bid again (Burgas rule): pass or redouble",
    "bid_higher": "you must bid higher than {bid_name}",
    "no_bid_to_double": "there is no bid to double yet",
    "double_other_side": "you can double only the other side's bid",
    "already_doubled": "this bid is already doubled",
    "already_redoubled": "this bid is already redoubled; there is no third level",
    "redouble_own_side": (
        "you can redouble only your own side's bid after the other side doubled it"
    ),
    # Belote contrée (contree_auction.py, contree_scoring.py)
    "contree_calls": "during the auction you bid, pass, coinche or surcoinche",
    "contree_bid_value": (
        "a bid is a multiple of 10 from 80 to {max_bid} or capot, with a trump suit"
    ),
    "contree_bid_higher": "you must bid higher than {value}",
    "bid_after_coinche": "the bid is coinched and nobody may bid again: pass or surcoinche",
    "no_bid_to_coinche": "there is no bid to coinche yet",
    "coinche_other_side": "you can coinche only the other side's bid",
    "already_coinched": "this bid is already coinched",
    "no_coinche_on_capot": "a capot cannot be coinched at this table",
    "surcoinche_own_side": (
        "you can surcoinche only your own side's bid after the other side coinched it"
    ),
    "contree_summary_bid": (
        "bid must be a multiple of 10 from 80 to {max_bid}, capot, or generale (with the option)"
    ),
    "coinche_level": "coinche must be 0, 1 (coinched) or 2 (surcoinched)",
    "bidder_tricks": "a generale needs bidder_tricks: the bidder's own tricks, 0 to {n}",
    "declarations_off": "declarations are not played at this table",
    "contree_no_carry": "carried_in must be 0: no litige is possible under these options",
    "delegated_back": (
        "the choice was delegated to you: you cannot delegate it back; name a suit or botifarra"
    ),
    "name_trump_suit": "name a trump suit: {suits:named_suits}",
    "choose_trumps": "it is time to choose trumps: name a suit or botifarra",
    "choose_trumps_or_delegate": (
        "it is time to choose trumps: name a suit or botifarra, or delegate to your partner"
    ),
    "time_to_contrar": "it is time to double (contrar) or pass",
    "time_to_recontrar": "it is time to redouble (recontrar) or pass",
    "time_to_sant_vicenc": "it is time to say Sant Vicenç or pass",
    # declarations (declarations.py, scoring.py, belote.py)
    "unknown_four_rank": "unknown rank {rank!r} in a four of a kind",
    "unknown_run_suit": "unknown suit {suit!r} in a run",
    "run_length": "a run has 3 to 8 cards",
    "unknown_run_top": "unknown top card {top!r} in a run",
    "run_top": "a run of {length} cannot have {top} as its top card",
    "unknown_declaration_kind": "unknown declaration kind {kind!r}",
    "card_in_two_declarations": "the {card} appears in two declarations",
    "too_many_declared_cards": "team {team} declares more than {max_cards} cards",
    "four_not_declaration": "a four of {rank}s is not a declaration",
    "four_worthless": "a four of {rank}s is worth nothing and is not a declaration",
    "belote_in_other_declarations": "the {key}'s cards appear in the other side's declarations",
    "belot_in_other_declarations": "the K or Q of a belot appears in the other team's declarations",
    "runs_tie_by": (
        'two equal runs tie: give each its declarer\'s position from the eldest hand ("by")'
    ),
    "by_both_teams": 'one player cannot have declared for both teams (same "by")',
    "by_range": '"by" is a position from the eldest hand, 0 to 3',
    "by_not_of_team": "position {by} from the eldest hand is not a player of team {team}",
    # a deal's summary (scoring.py and each game's score_deal)
    "summary_object": "the summary must be an object",
    "summary_contract": "the summary needs a contract",
    "unknown_trump": "unknown trump suit {trump!r}",
    "team_field": "{field} must be 0 or 1",
    "tricks_sum": "tricks must be two whole numbers adding up to {n}",
    "card_points_numbers": "card_points must be two whole numbers",
    "card_points_total": "card points must add up to {total}, not {sum}",
    "card_points_range": "the {cards} cards played hold {low} to {high} card points, not {sum}",
    "one_trick_cap": "1 trick holds at most {cap} card points, not {cp}",
    "tricks_cap": "{n} tricks hold at most {cap} card points, not {cp}",
    "last_trick_no_trick": "the last trick went to a team that took no trick",
    "belote_values": "belote must be two values, 0 or 1",
    "one_belote": "only one team can hold the belote",
    "declarations_lists": "declarations must be two lists of combinations",
    "tie_needs_eldest": "the {what} tie: eldest_team is needed to break the tie",
    "carried_in_whole": "carried_in must be a whole number of points, 0 or more",
    "carried_in_hanging": "carried_in (the hanging points) must be a whole number, 0 or more",
    "no_revoke": "{game} has no revoke penalty: the server only accepts legal cards",
    "bolot_no_carry": "Bolot carries no points from one deal to the next",
    "belote_2p_no_carry": "Belote for two holds no points from one deal to the next",
    # Belote for three's summary (belote_3p.py): per player
    "belote_3p_no_carry": "Belote for three holds no points from one deal to the next",
    "seat_field": "{field} must be a seat from 0 to {last}",
    "player_tricks": "tricks must be {players} whole numbers adding up to {n}",
    "player_card_points": "card_points must be {players} whole numbers",
    "last_trick_player_no_trick": "the last trick went to a player who took no trick",
    "player_belote_values": "belote must be {players} values, 0 or 1",
    "one_belote_player": "only one player can hold the belote",
    "player_declarations_lists": "declarations must be {players} lists of combinations",
    "declared_card_not_in_deck": "the {card:card} is not in this game's deck",
    "too_many_declared_cards_player": "a player declares more than the {max_cards} cards he holds",
    "runs_tie_needs_eldest": "two equal best runs tie: give the contract's eldest to break it",
    "botifarra_no_carry": "Botifarra carries no points from one hand to the next",
    "botifarra_no_declarations": "Botifarra has no declarations",
    "botifarra_no_belote": "Botifarra has no belote",
    "contract_trump_or_null": "contract.trump must be o, c, e or b, or null for botifarra",
    "trump_or_null": "the trump must be o, c, e or b, or null for botifarra",
    "doublings_range": "doublings must be 0 (none), 1 (contrar), 2 (recontrar) or 3 (Sant Vicenç)",
    "sant_vicenc_on_botifarra": (
        "Sant Vicenç is not allowed on botifarra in this game (option sant_vicenc_on_botifarra)"
    ),
    "delegated_bool": "delegated must be true or false",
    "revoke_team": "revoke_team must be 0, 1 or null",
    "multiplier": "the multiplier must be 1, 2 (contra) or 4 (recontra)",
    "belot_numbers": "belote must be two whole numbers: the belots each team announced",
    "no_trumps_no_declarations": "No Trumps has no declarations and no belot",
    "suit_one_belot": "a suit contract has one belot, the K and Q of trumps",
    "all_trumps_four_belots": "All Trumps has at most four belots, one per suit",
    # Bridge-Belote contracts (bridge_belote_contract.py)
    "contract_kind_object": "the contract must be an object with a kind",
    "unknown_contract_kind": "unknown contract kind {kind!r}: suit, no_trumps or all_trumps",
    "suit_contract_trump": "a suit contract needs its trump suit (S, H, D or C), not {trump!r}",
    "all_trumps_no_suit": "an all trumps contract has no trump suit",
    "no_trumps_no_suit": "a no trumps contract has no trump suit",
    # a deal's points alone, from a score sheet (deal_points.py)
    "deal_points_count": "give {n} numbers, one per side",
    "deal_points_whole": "the points of a deal are whole numbers",
    "deal_points_negative": "the points of a deal are zero or more",
    "deal_points_above_max": "no deal of this game scores more than {max} points in all",
    "deal_points_one_side": "only one side scores in a deal of this game",
    "deal_points_unit": "the points of a deal of this game are a multiple of {unit}",
    "deal_points_steps": (
        "a deal of this game scores at most {most} times its multiplier ({steps})"
    ),
}


class _English(string.Formatter):
    """Fills a template of :data:`MESSAGES`, writing cards and suits in English."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "card":
            return card_name(value)
        if format_spec == "suit":
            return SUIT_NAMES[value]
        if format_spec == "suits":
            return ", ".join(SUIT_NAMES[s] for s in value)
        if format_spec == "named_suits":
            return ", ".join(f"{s} ({SUIT_NAMES[s]})" for s in value)
        text: str = super().format_field(value, format_spec)
        return text


_FORMATTER = _English()


def english(code: str, params: dict[str, Any]) -> str:
    """The English sentence of ``code`` with ``params`` (see the module docstring).

    Raises KeyError for a code not in :data:`MESSAGES` or a missing param.
    """
    text = _FORMATTER.format(MESSAGES[code], **params)
    if "held" in params:
        text += f": you hold the {card_name(params['held'])}"
    return text


class Reason(str):
    """A refusal not raised yet (the rule that limits a play, a belote refusal): the
    English sentence as a ``str``, with ``.code`` and ``.params`` to raise it later with
    :class:`IllegalAction`. Raises KeyError for an unknown code."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, **params: Any) -> Reason:
        self = super().__new__(cls, english(code, params))
        self.code = code
        self.params = params
        return self


class IllegalAction(ValueError):
    """An action, option or summary the rules do not allow.

    ``IllegalAction(code, **params)`` with a code of :data:`MESSAGES` (KeyError
    otherwise), or ``IllegalAction(reason, **more_params)`` with a :class:`Reason`.
    ``.code`` and ``.params`` say what was refused; ``str(exc)`` is the English
    sentence, e.g. "you must over-trump: you hold the 10 of oros" for
    ``IllegalAction("must_over_trump", held="10o")``.
    """

    def __init__(self, code: str, **params: Any) -> None:
        if isinstance(code, Reason):
            params = {**code.params, **params}
            code = code.code
        self.code: str = str(code)
        self.params: dict[str, Any] = params
        super().__init__(english(self.code, params))
