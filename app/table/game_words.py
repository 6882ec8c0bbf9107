"""The texts a game words in its own way: the match and the deal.

Catalan has two vocabularies for one card table. Valencian Bolot says *joc* for the
match and *partida* for the deal (rules/bolot.md §1); Catalan Botifarra says *partida*
for the match and *mà* for the deal (rules/botifarra.md §1), which are the catalogue's
plain words. A page about one game runs inside ``i18n.game_words(labels.of(game).words)``,
and the catalogue's entries under that message context (``msgctxt "bolot"``) replace
the plain ones there (app/web/i18n.py). This module lists those contextual texts so
that extraction keeps them (``NP_``/``NNP_``, scripts/i18n.py): a catalogue gives one
only where the game's words differ in its language (today Catalan Bolot); elsewhere the
plain translation is used.
"""

from __future__ import annotations

from app.web.i18n import NNP_, NP_

#: Texts of the table, the score sheets, the records and the championship pages that
#: name the match or the deal, worded by Bolot's own words where a catalogue says so.
BOLOT = (
    # points-only deals and typed final scores (issue 19 §2)
    NP_("bolot", "The points of a deal are whole numbers."),
    NP_("bolot", "The points of a deal are zero or more."),
    NP_("bolot", "No deal of this game scores more than %(max)s points in all."),
    NP_("bolot", "Only one side scores in a deal of this game."),
    NP_("bolot", "The points of a deal of this game are a multiple of %(unit)s."),
    NP_("bolot", "A deal of this game scores at most %(most)s times its multiplier (%(steps)s)."),
    NP_(
        "bolot",
        "No match of this game and length reaches %(most)s points: a score is at most %(most)s.",
    ),
    NP_(
        "bolot",
        "Deals already entered at this table: %(n)s (%(totals)s). Enter the remaining deals, or give a reason to type the final score over them (kept in the audit trail).",
    ),
    NP_("bolot", "A deal of points only has nothing but its points."),
    NP_("bolot", "Give the deal's summary or its points, not both."),
    NP_("bolot", "the points of the deal"),
    NP_("bolot", "Each side's points for deal %(n)s, as written on the score sheet."),
    NP_("bolot", "Add deal %(n)s (points only)"),
    NP_(
        "bolot",
        "Deals already entered: %(n)s. A final score typed over them needs a reason, kept in the audit trail.",
    ),
    NP_("bolot", "(required over the deals entered)"),
    NP_(
        "bolot",
        "Enter each deal's points on the table page (Points only), or the whole deal; the totals are worked out there.",
    ),
    NP_("bolot", "%(call)s: failed, the deal goes to %(other)s."),
    NP_("bolot", "%(call)s: litige, %(carried)s points are held for the next deal."),
    NP_("bolot", "%(claim)s? A wrong claim loses the match."),
    NP_("bolot", "%(n)s deals"),
    NP_("bolot", "%(n)s minutes, the deal in progress finished"),
    NP_("bolot", "%(name)s resigned: their side lost the match."),
    NP_("bolot", "%(name)s wins the match"),
    NP_("bolot", "%(taker)s are inside: the whole deal (%(total)s) to %(other)s."),
    NP_("bolot", "%(team)s win the match"),
    NP_("bolot", "%(who)s claimed %(total)s of %(target)s: right, the match is won."),
    NP_("bolot", "%(who)s claimed %(total)s of %(target)s: wrong, the match is lost."),
    NNP_("bolot", "%(num)d deal", "%(num)d deals"),
    NP_("bolot", "A knockout match cannot end level: say which team won."),
    NP_("bolot", "A match is played to a target, for a number of deals or for a time."),
    NP_("bolot", "A match score is at most %(max)s."),
    NP_(
        "bolot",
        "A match to %(target)s points cannot end level: with equal scores over the target another deal is played.",
    ),
    NP_(
        "bolot",
        "A match to %(target)s points ends when a team reaches %(reach)s: neither score does.",
    ),
    NP_("bolot", "A number of deals"),
    NP_("bolot", "A tie: %(carried)s points hang for the next deal."),
    NP_("bolot", "Add deal %(n)s"),
    NP_("bolot", "Advanced: the deal summary as JSON"),
    NP_("bolot", "Check this deal's shuffle"),
    NP_("bolot", "Correct a deal"),
    NP_("bolot", "Correct deal %(n)s"),
    NP_("bolot", "Deal"),
    NP_("bolot", "Deal %(n)s"),
    NP_("bolot", "Deal %(n)s is still being played: its replay opens when it ends."),
    NP_("bolot", "Deal %(n)s is still being played: the bot can replay it once it ends."),
    NP_("bolot", "Deal %(n)s of %(game)s game %(id)s"),
    NP_("bolot", "Deal %(n)s: you and the strong bot"),
    NP_("bolot", "Deal summary (team 0 = %(team)s), as the score sheet says"),
    NP_("bolot", "Deals"),
    NP_("bolot", "Deals:"),
    NP_("bolot", "Delete this deal (the last one) instead"),
    NP_(
        "bolot",
        "Each tie-break is applied only to the teams still level at that step; head-to-head counts only the matches among them and is skipped when they have not all met. A highlighted value is the one that separated a team from the next. Forfeits give match points only.",
    ),
    NP_("bolot", "Enter the next deal"),
    NP_("bolot", "Hands of deal %(n)s"),
    NP_("bolot", "Hanging points: %(n)s, for the next deal that is not a tie"),
    NP_("bolot", "Last deal (deal %(n)s)"),
    NP_("bolot", "Leave the match?"),
    NP_("bolot", "Leave the match…"),
    NP_("bolot", "Match"),
    NP_("bolot", "Match points"),
    NP_("bolot", "Match points: win %(win)s, draw %(draw)s, loss %(loss)s, bye %(bye)s."),
    NP_("bolot", "Next deal coming…"),
    NP_("bolot", "No deal has ended yet."),
    NP_("bolot", "No deal scored yet."),
    NP_("bolot", "No match yet."),
    NP_("bolot", "Nobody was at the table any more: the match was ended."),
    NP_(
        "bolot",
        "Only a match limited by time or by a number of deals finishes at its totals: a match to a target score ends when a team reaches it.",
    ),
    NP_("bolot", "Only a seated player may replay a deal with the bot, from their own seat."),
    NP_("bolot", "Only the last deal can be deleted; correct the others."),
    NP_(
        "bolot",
        "Only while no table has a result: the online matches are stopped, and you can edit the pairing, pair again or publish anew.",
    ),
    NP_("bolot", "Published when the deal started, before any card was dealt:"),
    NP_("bolot", "Remaining matches"),
    NP_("bolot", "Reopen the match"),
    NP_("bolot", "Replay my deal with the strong bot"),
    NP_("bolot", "Replay this deal card by card"),
    NP_("bolot", "Resign the match?"),
    NP_("bolot", "Revealed when the deal ended:"),
    NP_("bolot", "Spectators see every hand one deal late, as it was dealt."),
    NP_("bolot", "Start the match"),
    NP_("bolot", "Step through the deal as played"),
    NP_(
        "bolot",
        "Table %(table)s cannot be reopened: only a finished paper match of the open round can.",
    ),
    NP_("bolot", "Table %(table)s has no deal %(deal_no)s."),
    NP_("bolot", "Table %(table)s is a bye or a removed match: it takes no result."),
    NP_("bolot", "Table %(table)s is not a match to be played."),
    NP_("bolot", "Table %(table)s is not a paper match in play."),
    NP_("bolot", "Table %(table)s is not a paper match."),
    NP_("bolot", "Table %(table)s is over: correct a deal instead."),
    NP_(
        "bolot",
        "The championship ended it during a deal (a team withdrew); its result is decided there.",
    ),
    NP_("bolot", "The championship's match ended here (its number of deals or its time)."),
    NP_("bolot", "The deal summary is not valid JSON."),
    NP_("bolot", "The deal summary must be an object."),
    NP_("bolot", "The deal summary needs a contract."),
    NP_("bolot", "The hashes match: this deal used the deck committed to at its start."),
    NP_(
        "bolot", "The match ends now and your side loses it. In a rated match it counts as a loss."
    ),
    NP_("bolot", "The match is in play again at its totals, with no winner, and takes deals."),
    NP_("bolot", "The match is not being played."),
    NP_("bolot", "The match is not over yet."),
    NP_("bolot", "The match is over."),
    NP_("bolot", "The match record"),
    NP_("bolot", "The match was ended"),
    NP_("bolot", "The match was stopped"),
    NP_("bolot", "The strong bot is replaying your deal…"),
    NP_("bolot", "The strong bot plays this deal again from your seat, with the same cards"),
    NP_("bolot", "There is no match %(n)s."),
    NP_(
        "bolot",
        "This deal is still being played. Its deck and salt are revealed when it ends; come back then to check that the deck dealt is the one committed to.",
    ),
    NP_("bolot", "This match"),
    NP_("bolot", "This match has no deal %(n)s."),
    NP_(
        "bolot", "You have fewer points than the target: this claim loses the match. Claim anyway?"
    ),
    NP_("bolot", "You left this match: a bot holds your seat."),
    NP_("bolot", "You resigned: your side lost the match."),
    NP_("bolot", "You win the match!"),
    NP_("bolot", "deal %(n)s"),
    NP_("bolot", "deal total %(n)s"),
    NP_("bolot", "head-to-head (match points among the teams level)"),
    NP_("bolot", "its remaining matches forfeited"),
    NP_("bolot", "all its matches removed from the standings"),
    NP_("bolot", "llocs: the takers failed; every point of the deal goes to the defenders"),
    NP_("bolot", "match points"),
    NP_("bolot", "matches won"),
    NP_("bolot", "now deal %(n)s"),
    NP_("bolot", "remaining matches forfeited"),
    NP_("bolot", "remaining matches removed"),
    NP_("bolot", "round %(round)s, table %(table)s, deal %(deal)s"),
    NP_("bolot", "the match record"),
    NP_("bolot", "the number of deals"),
    NP_("bolot", "tricks won this deal"),
    NP_("bolot", "void deal"),
    NP_("bolot", "Buchholz (sum of the opponents' match points)"),
    NP_(
        "bolot",
        "A club's score is the sum of its teams' match points, then point difference, then points scored.",
    ),
    NP_("bolot", "MP"),
)
