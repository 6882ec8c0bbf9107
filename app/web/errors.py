"""Refusals in the viewer's language, for the pages: translated from their code.

The JSON API keeps the English messages (programs read them). An engine refusal
(``app.rules.IllegalAction``) and every service refusal (``app.core.errors.ServiceError``;
tests/web/test_error_codes.py checks each raise) carry a ``code`` and ``params``; :data:`MSGIDS` gives each code its msgid (the English
sentence of the pages, translated in the catalogues), and :func:`translate` fills it
with the params put in the viewer's language:

* ``card``, ``held``: a card code ("9o") -> its name (``cards.card_name``);
* ``suit``: a suit letter -> its name; ``suits``: a list of letters;
* ``seat``: the API counts seats from 0, the pages from 1;
* ``option``: an engine option name -> its translated label; ``label``: a label, translated;
* ``bid``: a Bridge-Belote contract ("NT") -> its name.

A play refusal with ``held`` ends with ": you hold the <card>"; an engine refusal of a
championship's paper deal (param ``deal``) starts with "Deal N: ". A refusal without a
code, or with a code this table lacks, is shown in English as it is, never lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app import rules
from app.rules.errors import MESSAGES as ENGINE_MESSAGES
from app.web import cards
from app.web.i18n import N_, _

#: code -> msgid, or (msgid, {placeholder: param}) when the msgid's placeholder has
#: another name than the param it shows.
MSGIDS: dict[str, str | tuple[str, dict[str, str]]] = {
    # --- the engine (app/rules/errors.MESSAGES): obligations of play
    "must_follow_suit": N_("You must follow suit in %(suit)s"),
    "must_overtake_trumps": N_("Trumps were led: you must overtake"),
    "must_trump": N_("You cannot follow suit, so you must trump"),
    "must_over_trump": N_("You must over-trump"),
    "must_still_trump": N_("You cannot over-trump, but you must still trump"),
    "must_beat": N_("You must beat the opponents' %(card)s"),
    "must_over_trump_to_beat": N_(
        "You cannot follow %(suit)s, so you must over-trump the opponents' %(card)s"
    ),
    "must_trump_to_beat": N_(
        "You cannot follow %(suit)s, so you must trump to beat the opponents' %(card)s"
    ),
    "partner_winning_follow": N_(
        "Your partner is winning: follow %(suit)s with a counting card (9, 1, 12, 11, 10) "
        "or your lowest card of that suit"
    ),
    "partner_winning_discard": N_(
        "Your partner is winning and you cannot follow %(suit)s: play a counting card "
        "(9, 1, 12, 11, 10) or the lowest card of a suit"
    ),
    "must_follow_lowest": N_(
        "You cannot beat the opponents' %(card)s, so you must follow with your lowest %(suit)s"
    ),
    "must_follow_lowest_or_counting": N_(
        "You cannot beat the opponents' %(card)s, so you must follow with your lowest "
        "%(suit)s (or, as second player, a counting card)"
    ),
    "must_play_lowest": N_(
        "You can neither follow %(suit)s nor beat the opponents' %(card)s, so you must play "
        "the lowest card of a suit"
    ),
    "must_play_lowest_or_counting": N_(
        "You can neither follow %(suit)s nor beat the opponents' %(card)s, so you must play "
        "the lowest card of a suit (or, as second player, a counting card)"
    ),
    # the engine: playing a card
    "card_not_held": N_("You do not hold the %(card)s."),
    "name_a_card": N_("Name a card to play."),
    "belote_flag": N_("%(key)s is true or false."),
    "belote_first_card": N_(
        "You can announce it only with the first of the two cards of the pair, the other "
        "still in your hand."
    ),
    "belot_not_discard": N_(
        "A belot is announced only with a card that is led or follows suit, not with a discard."
    ),
    # the engine: options, deal and turn
    "unknown_game": N_("There is no game %(game)s."),
    "championship_two_sides": N_(
        "Championships pair two sides at a table: %(game)s has three players, each for himself."
    ),
    "unknown_option": N_("%(game)s has no option %(option)s."),
    "option_bool": N_("%(option)s: yes or no."),
    "option_int": N_("%(option)s: a whole number from %(lo)s to %(hi)s."),
    "option_choice": N_("%(option)s: one of %(choices)s."),
    "dealer_range": N_("The dealer must be a seat from 0 to %(last)s."),
    "no_such_seat": N_("There is no seat %(seat)s."),
    "action_object": N_("That move could not be read. Reload the page."),
    "match_over": N_("The match is over."),
    "not_dealt": N_("The cards have not been dealt yet."),
    "already_dealt": N_("The cards are already dealt."),
    "deck_once": N_("The deck must list each of the %(n)s cards exactly once."),
    "declare_first": N_("Declare your combinations (or none) before your first card."),
    "time_to_play": N_("It is time to play a card."),
    "declare_once": N_("You can declare only once, before your first card of trick 1."),
    "combinations_list": N_("Combinations must be a list of declarations."),
    "declaration_not_held": N_(
        "You do not hold that declaration (a run is declared whole, a card counts once)."
    ),
    "contract_object": N_("The contract must be an object."),
    # the engine: auctions
    "take_or_pass": N_("During the auction you take or pass."),
    "first_round_turned_suit": N_("In the first round you can only take the turned card's suit."),
    "second_round_suits": N_("In the second round name one of %(suits)s."),
    "no_seven_to_exchange": N_("There is no 7 of trumps to exchange now."),
    "exchange_first": N_("First say whether you exchange your 7 of trumps for the turned card."),
    "claim_only_in_play": N_("You can say \u201cI'm done\u201d only during the play."),
    "claim_not_played": N_("\u201cI'm done\u201d is not played at this table."),
    "claim_after_points": N_(
        "You can say \u201cI'm done\u201d only after winning a trick with points in it, "
        "and not at the last trick."
    ),
    "auction_calls": N_("During the auction you bid, pass, double or redouble."),
    "name_a_contract": N_("Name a contract: a trump suit, no trumps or all trumps."),
    "bid_locked": N_("The bid is doubled and nobody may bid again: pass or redouble."),
    "bid_higher": N_("You must bid higher than %(bid)s."),
    "no_bid_to_double": N_("There is no bid to double yet."),
    "double_other_side": N_("You can double only the other side's bid."),
    "already_doubled": N_("This bid is already doubled."),
    "already_redoubled": N_("This bid is already redoubled; there is no third level."),
    "redouble_own_side": N_(
        "You can redouble only your own side's bid after the other side doubled it."
    ),
    "contree_calls": N_("During the auction you bid, pass, coinche or surcoinche."),
    "contree_bid_value": N_(
        "A bid is a multiple of 10 from 80 to %(max_bid)s or capot, with a trump suit."
    ),
    "contree_bid_higher": N_("You must bid higher than %(value)s."),
    "bid_after_coinche": N_("The bid is coinched and nobody may bid again: pass or surcoinche."),
    "no_bid_to_coinche": N_("There is no bid to coinche yet."),
    "coinche_other_side": N_("You can coinche only the other side's bid."),
    "already_coinched": N_("This bid is already coinched."),
    "no_coinche_on_capot": N_("A capot cannot be coinched at this table."),
    "surcoinche_own_side": N_(
        "You can surcoinche only your own side's bid after the other side coinched it."
    ),
    "delegated_back": N_(
        "The choice was delegated to you: you cannot delegate it back; name a suit or botifarra."
    ),
    "name_trump_suit": N_("Name a trump suit: %(suits)s."),
    "choose_trumps": N_("It is time to choose trumps: name a suit or botifarra."),
    "choose_trumps_or_delegate": N_(
        "It is time to choose trumps: name a suit or botifarra, or delegate to your partner."
    ),
    "time_to_contrar": N_("It is time to double (contrar) or pass."),
    "time_to_recontrar": N_("It is time to redouble (recontrar) or pass."),
    "time_to_sant_vicenc": N_("It is time to say Sant Vicenç or pass."),
    # the engine: declarations
    "unknown_four_rank": N_("Unknown rank %(rank)s in a four of a kind."),
    "unknown_run_suit": N_("Unknown suit %(suit)s in a run."),
    "run_length": N_("A run has 3 to 8 cards."),
    "unknown_run_top": N_("Unknown top card %(top)s in a run."),
    "run_top": (N_("A run of %(len)s cannot have %(top)s as its top card."), {"len": "length"}),
    "unknown_declaration_kind": N_("Unknown declaration kind %(kind)s."),
    "card_in_two_declarations": N_("The %(card)s appears in two declarations."),
    "too_many_declared_cards": N_("Team %(team)s declares more than %(max_cards)s cards."),
    "four_not_declaration": N_("A four of %(rank)s is not a declaration."),
    "four_worthless": N_("A four of %(rank)s is worth nothing and is not a declaration."),
    "belote_in_other_declarations": N_(
        "The cards of the pair %(key)s appear in the other side's declarations."
    ),
    "belot_in_other_declarations": N_(
        "The K or Q of a belot appears in the other team's declarations."
    ),
    "runs_tie_by": N_(
        "Two equal runs tie: give each its declarer's position from the eldest hand."
    ),
    "by_both_teams": N_("One player cannot have declared for both teams."),
    "by_range": N_("A declarer's position from the eldest hand is 0 to 3."),
    "by_not_of_team": N_("Position %(by)s from the eldest hand is not a player of team %(team)s."),
    # the engine: a deal's points alone (deal_points.py)
    "deal_points_count": N_("Give %(n)s numbers, one per side."),
    "deal_points_whole": N_("The points of a deal are whole numbers."),
    "deal_points_negative": N_("The points of a deal are zero or more."),
    "deal_points_above_max": N_("No deal of this game scores more than %(max)s points in all."),
    "deal_points_one_side": N_("Only one side scores in a deal of this game."),
    "deal_points_unit": N_("The points of a deal of this game are a multiple of %(unit)s."),
    "deal_points_steps": N_(
        "A deal of this game scores at most %(most)s times its multiplier (%(steps)s)."
    ),
    # the engine: a deal's summary
    "summary_object": N_("The deal summary must be an object."),
    "summary_contract": N_("The deal summary needs a contract."),
    "unknown_trump": N_("Unknown trump suit %(trump)s."),
    "team_field": N_("%(field)s must be 0 or 1."),
    "tricks_sum": N_("The tricks must be two whole numbers adding up to %(n)s."),
    "card_points_numbers": N_("Card points must be two whole numbers."),
    "card_points_total": N_("Card points must add up to %(total)s, not %(sum)s."),
    "card_points_range": N_(
        "The %(cards)s cards played hold %(low)s to %(high)s card points, not %(sum)s."
    ),
    "one_trick_cap": N_("1 trick holds at most %(cap)s card points, not %(cp)s."),
    "tricks_cap": N_("%(n)s tricks hold at most %(cap)s card points, not %(cp)s."),
    "last_trick_no_trick": N_("The last trick went to a team that took no trick."),
    "belote_values": N_("The belote is two values, 0 or 1."),
    "one_belote": N_("Only one team can hold the belote."),
    "declarations_lists": N_("The declarations must be two lists of combinations."),
    "tie_needs_eldest": N_("The tie must be broken by the eldest hand: give eldest_team."),
    "carried_in_whole": N_("The points carried in must be a whole number, 0 or more."),
    "carried_in_hanging": N_("The points carried in must be a whole number, 0 or more."),
    "no_revoke": N_("%(game)s has no revoke penalty: the server only accepts legal cards."),
    "bolot_no_carry": N_("This game carries no points from one deal to the next."),
    "belote_2p_no_carry": N_("This game carries no points from one deal to the next."),
    "belote_3p_no_carry": N_("This game carries no points from one deal to the next."),
    "seat_field": N_("%(field)s must be a seat from 0 to %(last)s."),
    "player_tricks": N_("The tricks must be %(players)s whole numbers adding up to %(n)s."),
    "player_card_points": N_("Card points must be %(players)s whole numbers."),
    "last_trick_player_no_trick": N_("The last trick went to a player who took no trick."),
    "player_belote_values": N_("The belote is %(players)s values, 0 or 1."),
    "one_belote_player": N_("Only one player can hold the belote."),
    "player_declarations_lists": N_("The declarations must be %(players)s lists of combinations."),
    "declarations_off": N_("Declarations are not played at this table."),
    "declared_card_not_in_deck": N_("The %(card)s is not in this game's deck."),
    "too_many_declared_cards_player": N_(
        "A player declares more than the %(max_cards)s cards he holds."
    ),
    "runs_tie_needs_eldest": N_("Two equal best runs tie: give the eldest hand to break it."),
    "botifarra_no_carry": N_("This game carries no points from one deal to the next."),
    "botifarra_no_declarations": N_("Botifarra has no declarations."),
    "botifarra_no_belote": N_("Botifarra has no belote."),
    "contract_trump_or_null": N_("The trump must be o, c, e or b, or none for botifarra."),
    "trump_or_null": N_("The trump must be o, c, e or b, or none for botifarra."),
    "doublings_range": N_(
        "The doublings are 0 (none), 1 (contrar), 2 (recontrar) or 3 (Sant Vicenç)."
    ),
    "sant_vicenc_on_botifarra": N_("Sant Vicenç is not allowed on botifarra in this game."),
    "delegated_bool": N_("Delegated is true or false."),
    "revoke_team": N_("The revoking team is 0, 1 or none."),
    "multiplier": N_("The multiplier must be 1, 2 (contra) or 4 (recontra)."),
    "belot_numbers": N_("The belots must be two whole numbers: the belots each team announced."),
    "no_trumps_no_declarations": N_("No Trumps has no declarations and no belot."),
    "suit_one_belot": N_("A suit contract has one belot, the K and Q of trumps."),
    "all_trumps_four_belots": N_("All Trumps has at most four belots, one per suit."),
    "contract_kind_object": N_("The contract must be an object with a kind."),
    "unknown_contract_kind": N_("Unknown contract kind %(kind)s."),
    "suit_contract_trump": N_("A suit contract needs its trump suit."),
    "all_trumps_no_suit": N_("An all trumps contract has no trump suit."),
    "no_trumps_no_suit": N_("A no trumps contract has no trump suit."),
    "contree_summary_bid": N_(
        "The bid must be a multiple of 10 from 80 to %(max_bid)s, capot, or générale "
        "(with the option)."
    ),
    "coinche_level": N_("Coinche must be 0, 1 (coinched) or 2 (surcoinched)."),
    "bidder_tricks": N_("A générale needs the bidder's own tricks: 0 to %(n)s."),
    "contree_no_carry": N_("No points can be held in: no litige is possible under these options."),
    # --- the services (app/rooms, app/records, app/accounts, app/tournaments)
    "not_your_turn": N_("It is not your turn."),
    "move_made_first": N_("Another move was made first; reload the table."),
    "stale_move": N_("The table has moved on; reload it."),
    "seats_not_filled": N_("Every seat must be filled before the start."),
    "game_started": N_("The game has already started."),
    "game_not_started": N_("The game has not started."),
    "game_over": N_("The game is over."),
    "bots_before_start": N_("Bots are seated before the game starts."),
    "already_seated": N_("You already hold a seat in this room."),
    "already_hold_seat": (N_("You already hold seat %(n)s in this room."), {"n": "seat"}),
    "seat_taken": (N_("Seat %(n)s is taken."), {"n": "seat"}),
    "creator_seat": N_("Your seat is a number from 0 to %(last)s."),
    "seat_not_yours": (N_("Seat %(n)s is not yours."), {"n": "seat"}),
    "no_seat_here": N_("You do not hold a seat at this table."),
    "match_not_over": N_("The match is not over yet."),
    "match_not_playing": N_("The match is not being played."),
    "championship_rematch": N_("A championship's table has no rematch."),
    "left_match": N_("You left this match: a bot holds your seat."),
    "bot_seater": N_("Only the room's creator or a seated player may seat a bot."),
    "starter": N_("Only the room's creator or a seated player may start the game."),
    "no_room": N_("There is no room %(n)s."),
    "id_out_of_range": N_("Not found: that number is out of range."),
    "body_too_large": N_("The request is too large (more than %(n)s bytes)."),
    "rate_login": N_("Too many log-in attempts: try again in %(n)s s."),
    "rate_session": N_("Too many new sessions from your address: try again in %(n)s s."),
    "rate_moves": N_("Too many moves at once: try again in %(n)s s."),
    "rate_rooms": N_("Too many new rooms: try again in %(n)s s."),
    "rate_replays": N_("Too many deal replays at once: try again in %(n)s s."),
    "rate_hints": N_("Too many hints at once: try again in %(n)s s."),
    "rate_code_failures": N_("Too many wrong invitation codes: try again in %(n)s s."),
    "no_game": N_("There is no match %(n)s."),
    "no_tournament": N_("There is no tournament %(n)s."),
    "deal_in_play": N_("Deal %(n)s is still being played: its replay opens when it ends."),
    "deal_cut_short": N_("Deal %(n)s was not played out: the match ended during it."),
    "not_a_deal_id": N_("%(id)s is not a deal number; one looks like 12-3 (match 12, deal 3)."),
    "room_no_game": N_("Room %(n)s has no game yet."),
    "replay_seated_only": N_(
        "Only a seated player may replay a deal with the bot, from their own seat."
    ),
    "replay_own_seat": N_("You may replay only your own seat."),
    "replay_deal_in_play": N_(
        "Deal %(n)s is still being played: the bot can replay it once it ends."
    ),
    "costs_busy": N_("The solver is busy with other deals: try again in %(n)s s."),
    "costs_too_many": N_("You have asked the solver for many deals: try again in %(n)s s."),
    "costs_deal_in_play": N_(
        "Deal %(n)s is still being played: what each card cost is shown once it ends."
    ),
    "no_such_deal": N_("This match has no deal %(n)s."),
    "no_player": N_("There is no player %(n)s."),
    "profile_private": N_("This profile is private."),
    "not_a_legal_action": N_("That is not one of your possible moves now."),
    "bad_login": N_("Wrong username or password."),
    "username_taken": N_("The username %(name)s is taken."),
    "guest_registered": N_("This guest has already registered."),
    "nickname_length": N_("A nickname has 1 to 24 characters."),
    "nickname_control": N_("A nickname may not contain control characters."),
    "nickname_blank": N_("A nickname needs a visible letter or sign."),
    "nickname_bot_like": N_("A nickname may not look like a bot's name."),
    "nickname_you_like": N_(
        "A nickname may not read as “You”: the table shows that word at your own seat."
    ),
    "nickname_taken": N_(
        "Someone playing now is called %(name)s. Choose another nickname, for example %(suggestion)s."
    ),
    "queue_preset": N_("This game has no rules preset %(preset)s."),
    "queue_wait": N_("The wait is a number of seconds from 0 to %(high)s."),
    "queue_no_partners": N_("This game is not played in partnerships: choose a game of four."),
    "queue_other": N_("You are already waiting in another queue: leave it first."),
    "queue_seated": N_(
        "You are seated at table %(room)s, still playing: go back to it or leave your seat first."
    ),
    "queue_no_code": N_("No partner is waiting with this code (they may have left the queue)."),
    "queue_own_code": N_("This is your own entry: send its link to your partner."),
    "queue_partner_full": N_("Someone else has already joined this partner."),
    # invitations and private rooms (app/rooms/invites.py)
    "room_private": N_("This table is private: open it with its link or its code."),
    "invite_no_code": N_("No table has this code. Check it with the person who sent it."),
    "invite_bad_code": N_("This is not this table's invitation code."),
    "invite_seat_gone": N_("Someone took this seat before you."),
    "invite_not_offered": N_("This seat is not offered (any more)."),
    "invite_owner_only": N_("Only the table's owner may do this."),
    "invite_public_room": N_("A public table is open to everyone."),
    "invite_rated_running": N_(
        "A rated match keeps its seats: a bot's seat can be offered during a casual match only."
    ),
    "invite_seat_reserved": N_("This seat is offered to the person the owner invited."),
    "invite_championship": N_("A championship's table seats its own players."),
    "invite_no_free_code": N_("No invitation code could be given: try again."),
    "creation_key": N_("This form is damaged: reload the page and try again."),
    "creation_key_taken": N_("This form belongs to someone else: reload the page."),
    "username_bot_like": N_("A username may not look like a bot's name."),
    "username_you_like": N_(
        "A username may not read as “You”: the table shows that word at your own seat."
    ),
    "guest_no_password": N_("A guest has no password: register an account first."),
    "session_ended": N_("Your session ended meanwhile: log in again."),
    "no_such_session": N_("You have no such session."),
    "unstorable_text": N_(
        "The text may not contain a NUL character or a broken Unicode character."
    ),
    "organiser_not_account": N_("Only a registered account can be a co-organiser."),
    "account_needed_tournament": N_(
        "Organising a championship needs an account; you keep your nickname and your seats."
    ),
    "password_length": N_("A password has %(a)s to %(b)s characters."),
    "username_form": N_(
        "A username has 3 to 32 characters: letters a-z, digits, '.', '_' or '-', "
        "starting with a letter or a digit."
    ),
    "passwords_differ": N_("The two passwords differ."),
    "signed_in_already": N_("You are already signed in as %(name)s; log out first."),
    "rate_login_user": N_(
        "Too many failed log-ins for this username; wait a few minutes and try again."
    ),
    "correction_reason": N_("A correction needs a reason."),
    "winner_higher_score": N_("The winner is the team with the higher score."),
    "knockout_level": N_("A knockout match cannot end level: say which team won."),
    "score_cap": N_(
        "A score is at most %(cap)s in this tournament (scores are recorded up to %(cap)s)."
    ),
    "score_beyond_match": N_(
        "No match of this game and length reaches %(most)s points: a score is at most %(most)s."
    ),
    "final_over_deals": N_(
        "Deals already entered at this table: %(n)s (%(totals)s). Enter the remaining "
        "deals, or give a reason to type the final score over them (kept in the audit trail)."
    ),
    "points_only_shape": N_("A deal of points only has nothing but its points."),
    "summary_or_points": N_("Give the deal's summary or its points, not both."),
    "botifarra_one_pair": N_(
        "Only one pair can reach %(n)s: in Botifarra one pair scores per hand and the game "
        "ends at the target."
    ),
    "match_not_reached": N_(
        "A match to %(target)s points ends when a team reaches %(reach)s: neither score does."
    ),
    "match_level": N_(
        "A match to %(target)s points cannot end level: with equal scores over the target "
        "another deal is played."
    ),
    "clock_seconds": N_("Move clock: off, or a number of seconds."),
    "not_whole_number": N_("%(label)s: %(raw)s is not a whole number."),
    "whole_number": N_("Give %(label)s as a whole number."),
    "match_points_half": N_("Give %(label)s as a number in halves (0, 0.5, 1, 1.5…)."),
    "number_range": N_("Give %(label)s from %(low)s to %(high)s."),
    "field_missing": N_("Fill in %(label)s."),
    # accounts and rooms
    "sign_in_first": N_("Choose a nickname first (on the lobby page)."),
    "account_needed": N_(
        "This needs a registered account; a guest keeps its seats when it registers."
    ),
    "room_no_seat": N_("Room %(room)s has no seat %(seat)s."),
    "seat_kept": N_(
        "Seat %(seat)s is kept for its player while the game runs; you can watch the table."
    ),
    "options_object": N_("The options must be an object."),
    "spectators_flag": N_("Spectators see the hands: yes or no."),
    "max_timeouts": N_("Timeouts in a row before a stand-in bot plays: %(low)s to %(high)s."),
    "seq_number": N_("That move could not be read. Reload the page."),
    "unknown_bot": N_("There is no bot %(bot)s."),
    "hint_seated_only": N_("Only a seated player gets a hint, for their own seat."),
    "hint_not_here": N_(
        "No hints in a rated match against other people, nor at a championship's table: the"
        " strong bot would be playing for you."
    ),
    # tournaments: settings
    "unknown_format": N_("There is no format %(format)s."),
    "settings_object": N_("The settings must be an object."),
    "unknown_setting": N_("Unknown setting: the settings are %(keys)s."),
    "unknown_match_setting": N_("Unknown match setting: a match of this kind has %(keys)s."),
    "return_leg_bool": N_("The return leg is true or false."),
    "chat_bool": N_("The tables' chat is true or false."),
    "avoid_same_club_bool": N_("Keeping clubmates apart is true or false."),
    "points_object": N_("The match points must be an object."),
    "match_kind": N_("A match is played to a target, for a number of deals or for a time."),
    "unknown_match_points": N_("Unknown match points %(key)s: use win, draw, loss or bye."),
    "tiebreaks_list": N_("Choose the tie-breaks from the list."),
    "tiebreak_twice": N_("A tie-break is listed twice."),
    "play_mode": N_("The tables are played on paper or online."),
    # tournaments: organisers, clubs, teams
    "text_type": N_("Write %(label)s as text."),
    "text_required": N_("Fill in %(label)s."),
    "text_too_long": N_("Shorten %(label)s to at most %(max)s characters."),
    "organisers_only": N_("Only the organisers of this tournament may manage it."),
    "club_kind": N_("A club is a falla, a penya, a society or a club."),
    "club_exists": N_("There is already a club %(club)s in %(town)s."),
    "club_exists_no_town": N_("There is already a club %(club)s without a town."),
    "no_club": N_("There is no club %(club)s."),
    "no_user": N_("There is no user %(user)s."),
    "no_account": N_("There is no account %(name)s."),
    "entries_closed": N_(
        "Entries are closed: only a Swiss takes late entries once it has started."
    ),
    "team_size": N_("A team of %(game)s has %(size)s player(s)."),
    "accounts_id_or_name": N_("Give the players' accounts by id or by username, not both."),
    "team_accounts_max": N_("Give up to %(size)s different player accounts."),
    "first_account_first": N_("Give the first player's account too, or put this account first."),
    "player_in_two_teams": N_("A player already plays in another team of this tournament."),
    "team_name_taken": N_("There is already a team %(team)s."),
    # tournaments: players' team requests (app/tournaments/signup.py)
    "self_registration_bool": N_("Players' registration is true or false."),
    "account_needed_request": N_(
        "Registering a team needs a registered account: register or log in first."
    ),
    "registration_closed": N_(
        "Players cannot register teams in this championship now: ask the organisers."
    ),
    "no_partner": N_("A team of %(game)s has one player: leave the partner out."),
    "partner_self": N_("Your partner is another player."),
    "partner_needed": N_("Give your partner's username: a team has two players."),
    "already_in_team": N_("You already play in a team of this championship."),
    "partner_in_team": N_("%(partner)s already plays in a team of this championship."),
    "request_pending": N_(
        "You already have a request waiting for the organisers: withdraw it first."
    ),
    "partner_request_pending": N_(
        "%(partner)s is already in a request waiting for the organisers."
    ),
    "team_name_requested": N_("Another request waiting for the organisers is named %(team)s."),
    "no_team_request": N_("There is no team request %(n)s in this championship."),
    "not_your_request": N_("Only its requester or partner may withdraw a request."),
    "request_decided": N_("The organisers have already decided this request."),
    "request_not_pending": N_(
        "This request is no longer waiting: it was approved, declined or withdrawn."
    ),
    "no_team": N_("There is no team %(team)s in this tournament."),
    "team_withdrawn": N_("%(team)s has already withdrawn."),
    "withdraw_remaining": N_("The remaining matches are either forfeited or removed."),
    # tournaments: rounds
    "no_round_published": N_("No round has been published."),
    "no_published_round": N_("There is no published round %(round)s."),
    "round_no_table": N_("Round %(round)s has no table %(table)s."),
    "round_not_draft": N_("Round %(round)s is not a draft to publish."),
    "round_not_open": N_("Round %(round)s is not open."),
    "round_has_results": N_(
        "Round %(round)s has results at table(s) %(tables)s: it cannot go back to a draft."
    ),
    "pairing_fixed": N_(
        "A round robin follows its schedule: only a Swiss or a knockout round is edited."
    ),
    "pairing_teams": N_("Each active team plays exactly once, against another team or with a bye."),
    "pairing_empty": N_("A round has at least one table."),
    "pairing_self": N_("%(team)s cannot play against itself."),
    "pairing_not_active": N_("%(team)s is not an active team of this championship."),
    "pairing_twice": N_("%(team)s is at two tables: each team plays once."),
    "pairing_not_in_round": N_("%(team)s is not in this knockout round."),
    "team_same_player": N_("A team's two players are two people: the same name is given twice."),
    "pairing_bracket": N_(
        "A knockout round has 1, 2, 4, 8… tables, byes included, so that its winners meet two by two in the next round: this pairing has %(n)s."
    ),
    "pairing_confirm": N_(
        "This pairing repeats a match or a bye that was played: confirm it to save it."
    ),
    "pairing_missing": N_(
        "%(team)s has no table: each active team plays once (a bye is a table without an opponent)."
    ),
    "round_still_open": N_(
        "Round %(round)s is still open: close it or take it back to a draft first."
    ),
    "round_tables_playing": N_(
        "The round cannot close while a table is playing: table(s) %(tables)s."
    ),
    "close_round_first": N_("Close the current round before pairing the next one."),
    "tournament_finished": N_("The tournament is finished."),
    "cap_score_botifarra": N_(
        "The cap score is an option of Botifarra only: leave it empty for another game."
    ),
    "final_played": N_("The final has been played: the tournament is complete."),
    "two_teams_first": N_("Enter at least two teams first."),
    "ranking_three_only": N_(
        "A ranking by match points or by points is chosen in games of three players, each for himself."
    ),
    "ranking_kind": N_("Rank the players by match points or by points."),
    "three_players_first": N_("Enter at least three players first."),
    "score_count": N_(
        "A table of three players takes three scores; a table of two sides takes two."
    ),
    "three_no_forfeit": N_("A table of three has no forfeit: enter the scores."),
    "round_robin_played": N_("Every round of the round robin has been played."),
    "swiss_played": N_("Every Swiss round has been played."),
    "no_pairing": N_("No pairing of the next round satisfies the rules."),
    "team_two_tables": N_("A team would sit at two live tables: close the open round first."),
    "player_two_tables": N_(
        "A player would sit at two tables of this round: each player is in one team."
    ),
    "round_no_draft": N_(
        "There is no draft round %(round)s: a preview is thrown away when the teams change. "
        "Pair the round again."
    ),
    "concurrent_change": N_(
        "Someone changed this tournament at the same moment: reload the page and try again."
    ),
    "request_key_reused": N_("This form was already sent for something else: reload the page."),
    "request_in_progress": N_("This request is still being handled: reload the page in a moment."),
    "knockout_no_winner": N_("Table %(table)s has no winner yet: a knockout match needs one."),
    "table_mode": N_("A table is played online or on paper."),
    "draft_tables_only": N_("Only a draft round's tables can change how they are played."),
    "table_not_a_match": N_("Table %(table)s is not a match to be played."),
    "team_no_accounts": N_(
        "%(team)s has no player accounts for an online table: play it on paper."
    ),
    # tournaments: results and score sheets
    "winner_team": N_("The winner must be one of the table's two teams."),
    "score_negative": N_("Scores are zero or more."),
    "score_max": N_("A match score is at most %(max)s."),
    "forfeit_winner": N_("A forfeit names the winner."),
    "table_takes_no_result": N_("Table %(table)s is a bye or a removed match: it takes no result."),
    "table_playing_online": N_(
        "Table %(table)s is still playing online: give a reason to override it."
    ),
    "table_not_paper": N_("Table %(table)s is not a paper match."),
    "table_over": N_("Table %(table)s is over: correct a deal instead."),
    "table_not_in_play": N_("Table %(table)s is not a paper match in play."),
    "finish_needs_limit": N_(
        "Only a match limited by time or by a number of deals finishes at its totals: "
        "a match to a target score ends when a team reaches it."
    ),
    "table_not_reopenable": N_(
        "Table %(table)s cannot be reopened: only a finished paper match of the open round can."
    ),
    "table_no_deal": N_("Table %(table)s has no deal %(deal_no)s."),
    "delete_last_deal_only": N_("Only the last deal can be deleted; correct the others."),
    "summary_not_json": N_("The deal summary is not valid JSON."),
    "no_such_step": N_("There is no step %(step)s."),
    "no_such_form": N_("There is no form %(form)s."),
    # --- friends and presence (app/social, issue 18 §3)
    # the chat (app/chat/service.py: the same msgids, so one translation serves both)
    "invite_blocked": N_("You cannot sit at this table."),
    "chat_off": N_("Chat is switched off at this table."),
    "chat_empty": N_("Write a message or choose a reaction."),
    "chat_too_long": N_("A message has at most 300 characters."),
    "chat_too_fast": N_("You are writing too fast: wait a few seconds."),
    "chat_reaction": N_("There is no such reaction."),
    "chat_client_id": N_("The message's id has 1 to 64 letters, digits, '-' or '_'."),
    "chat_client_id_used": N_("That message id was used for another room."),
    "chat_no_message": N_("There is no such message."),
    "chat_no_person": N_("There is no such person."),
    "chat_yourself": N_("You cannot do that to yourself."),
    "chat_not_moderator": N_(
        "Only the site's admins or the championship's organisers can hide a message."
    ),
    "chat_reason_too_long": N_("A reason has at most 300 characters."),
    "chat_admins_only": N_("Only the site's admins read the reports."),
    "follow_self": N_("You cannot follow yourself."),
    "follow_private": N_("This profile is private: it cannot be followed."),
}

#: The names of fields the services pass as ``label`` (translated by :func:`_localise`).
LABELS = (
    N_("the club's name"),
    N_("the town"),
    N_("the tournament's name"),
    N_("the venue"),
    N_("a player's name"),
    N_("the team's name"),
    N_("rounds"),
    N_("groups"),
    N_("advance"),
    N_("the number of deals"),
    N_("the time limit in minutes"),
    N_("points for a win"),
    N_("points for a draw"),
    N_("points for a loss"),
    N_("points for a bye"),
    N_("home score"),
    N_("away score"),
    N_("winner"),
    N_("round"),
    N_("the bid"),
    N_("coinche"),
    N_("the bidder's tricks"),
)


def _option_label(name: str) -> str:
    """The translated label of the engine option ``name`` ("target" -> "Match to"), else ``name``."""
    for game in rules.GAMES.values():
        for o in game.options_schema:
            if o["name"] == name and o.get("label"):
                return _(str(o["label"]))
    return name


def _card(value: Any) -> str:
    try:
        return cards.card_name(str(value))
    except (KeyError, IndexError, ValueError):
        return str(value)


def _localise(key: str, value: Any) -> str:
    """One param as the pages show it (see the module docstring)."""
    try:
        if key in ("card", "held"):
            return _card(value)
        if key == "suit":
            return cards.suit_name(str(value))
        if key == "suits":
            return ", ".join(cards.suit_name(str(s)) for s in value)
        if key == "seat" and isinstance(value, int) and not isinstance(value, bool):
            return str(value + 1)
        if key == "option":
            return _option_label(str(value))
        if key == "label":
            return _(str(value))
        if key == "bid":
            return cards.contract_name(value)
    except (KeyError, TypeError, ValueError):
        pass
    return str(value)


def translate(code: str | None, params: Mapping[str, Any], fallback: str) -> str:
    """The refusal ``code`` with ``params`` in the viewer's language; ``fallback`` (the
    English message) when ``code`` is None or not in :data:`MSGIDS`. Never raises for a
    missing param: the English fallback is shown instead."""
    entry = MSGIDS.get(code) if code else None
    if entry is None:
        return fallback
    msgid, renames = entry if isinstance(entry, tuple) else (entry, {})
    values = {k: _localise(k, v) for k, v in params.items()}
    for placeholder, param in renames.items():
        if param in values:
            values[placeholder] = values[param]
    try:
        text = _(msgid) % values
    except (KeyError, TypeError, ValueError):
        return fallback
    if "held" in params:
        text += ": " + _("you hold the %(card)s") % {"card": values["held"]}
    if "deal" in params and code in ENGINE_MESSAGES:  # a championship's paper deal
        text = _("Deal %(n)s") % {"n": params["deal"]} + ": " + text[:1].lower() + text[1:]
    return text


def message_for(error: BaseException | str | None) -> str:
    """What a page shows for ``error``: a refusal with a ``code`` (``IllegalAction``,
    ``ServiceError``) translated with its params; a refusal without one as its English
    message; a text (a msgid of the pages, or a sentence already translated) through
    the catalogue, unchanged when the catalogue does not know it."""
    if error is None:
        return ""
    if isinstance(error, str):
        text = error.strip()
        return _(text) if text else text
    fallback = str(getattr(error, "message", None) or error)
    return translate(getattr(error, "code", None), getattr(error, "params", None) or {}, fallback)
