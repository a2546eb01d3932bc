"""What each audience of a table may see, as plain template contexts: the public board, one
seat's panel (or the watchers'), the summary of a round just over.

There are three audiences (docs/architecture.md, "The flow of one move"): everyone (the public
board), each seat (its hand and its buttons) and the watchers (people without a seat). What goes
into a context is decided here, from the proven seat, before any template runs: a template is
never given a card its viewer may not see.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

import ocholoco
from tables.audiences import frame_words, wording
from tables.audiences.cards import card_info, cards_info, hand_grid, suit_info
from tables.audiences.narration import log_lines
from tables.audiences.round_history import round_proof
from tables.models import Seat, Table
from tables.state.lookup import archived_kept_until
from tables.state.snapshot import TableSnapshot

# The robot levels a host may add (value, label): Django builds `choices` anew on every read.
ROBOT_LEVELS = Seat.Level.choices
NO = ("", "")  # a playable card's refusal, shown and spoken: none


def target_text(rules: ocholoco.RuleSet, target: int) -> str:
    if rules.scoring == "penalty":
        return _("la partida termina a %(target)s puntos y gana quien tenga menos") % {
            "target": target,
        }  # fmt: skip
    return _("se gana con %(target)s puntos") % {"target": target}


def _move_text(snapshot: TableSnapshot, event: ocholoco.Event) -> str:
    return wording.event_sentence(event, lambda player: snapshot.seat_of_player(player).name)


def board_context(snapshot: TableSnapshot) -> dict[str, Any]:
    """The public part: seats, counts, scores, top card, stock, direction, whose turn."""
    table, state, match = snapshot.table, snapshot.round, snapshot.match
    in_play = table.status == Table.Status.PLAYING
    public = ocholoco.view_for(state, None) if state is not None else None
    lobby = table.status == Table.Status.LOBBY
    players = []
    for number in range(table.seat_count):
        seat = snapshot.seats.get(number)
        if seat is None and not lobby:
            continue  # an empty seat shows only in the lobby
        player = table.player_of_seat(number)
        entry: dict[str, Any] = {"number": number, "seat": seat, "in_match": player is not None}
        # The box's classes, worked out here: the board renders on every move, for every table.
        classes = f"player seat-{number}"
        if seat is None:
            classes += " is-empty"
        else:
            entry.update(
                name=seat.name,
                is_host=number == table.host_seat,
                is_robot=seat.plays_as_robot,
                level=seat.get_robot_level_display() if seat.plays_as_robot else "",
            )
            if player is None and not lobby:
                classes += " is-out"  # seated after the match began: plays the next one
        if player is not None and public is not None:
            count = public.hand_sizes[player]
            if in_play and public.turn == player:
                classes += " is-turn"
            entry.update(
                count=count,
                count_text=ngettext("%(count)s carta", "%(count)s cartas", count) % {
                    "count": count,
                },  # fmt: skip
                fan=min(count, 12),  # the backs drawn beside the name
                score=match.totals[player] if match else 0,
            )
            entry["score_said"], entry["score_short"] = frame_words.score_words(entry["score"])
        entry["classes"] = classes
        players.append(entry)

    context: dict[str, Any] = {
        "words": frame_words.frame_words(),
        "table": table,
        "version": table.version,
        "rules": table.rules,
        "players": players,
        # The game log's lines of the change this version is (none when loaded afresh: a page
        # that missed versions asks for them, `views.table_log_since`).
        "log_feed": log_lines(snapshot.events, snapshot) if snapshot.events else [],
        "status": table.status,
        "deleted_on": archived_kept_until(table),
        "deal_commitment": table.deal_commitment if state is not None else "",
        "free_seats": table.seat_count - len(snapshot.seats),
        # Five or more boxes on the board: the compact layout (lobby: every seat is shown).
        "many_seats": (
            table.seat_count if table.status == Table.Status.LOBBY else len(snapshot.seats)
        ) > 4,
    }
    if public is not None:
        history = list(public.history)
        last = history[-1] if history else None
        context.update(
            last_kind=last.kind if last else "",
            last_seat=table.seat_of_player(last.player) if last else "",
            last_card=str(last.card) if last and last.card else "",
            top=card_info(public.top),
            active_suit=suit_info(public.active_suit) if public.active_suit else None,
            suit_changed=public.active_suit is not None and public.active_suit != public.top.suit,
            stock=public.stock_size,
            stock_said=frame_words.stock_words(public.stock_size),
            direction=public.direction,
            pending_draw=public.pending_draw,
            deadline=table.turn_deadline.isoformat() if in_play and table.turn_deadline else "",
            turn_name=snapshot.seat_of_player(public.turn).name if in_play else "",
            last_moves=[_move_text(snapshot, e) for e in history[-3:]][::-1],
            match=match,
            target_text=target_text(match.rules, match.target) if match else "",
            # After a round ends the match already counts the next one; show the one just played.
            round_number=match.round_number - (0 if in_play else 1) if match else 0,
        )
        context["round_said"] = frame_words.round_words(context["round_number"]) if match else ""
    return context


def _outcome_text(rows: list[dict[str, Any]], *, blocked: bool, penalty: bool) -> str:
    """Who won the round, what and why, in one or two sentences a first-timer can read."""
    winners = [r for r in rows if r["round_winner"]]
    names = wording.and_list(r["name"] for r in winners) if winners else ""
    plural = len(winners) > 1
    if penalty:
        if blocked:
            return _(
                "La mesa se bloqueó. Cada uno se anota los puntos que le quedaron en la mano; al"
                " final gana quien sume menos."
            )
        return _(
            "%(names)s se quedó sin cartas. Cada uno se anota los puntos que le quedaron en la"
            " mano; al final gana quien sume menos."
        ) % {"names": names}
    gained = ""
    for r in winners:  # "+5", "+5 y +5"
        amount = f"+{r['gained']}"
        gained = pgettext("amounts", "%(these)s y %(that)s") % {
            "these": gained, "that": amount,
        } if gained else amount  # fmt: skip
    if blocked:
        least = winners[0]["hand_points"] if winners else 0
        args = {"names": names, "least": least, "gained": gained}
        if plural:
            return ngettext(
                "La mesa se bloqueó: %(names)s tenían la mano que menos vale (%(least)s punto)"
                " y cobran a cada uno la diferencia con la suya: %(gained)s.",
                "La mesa se bloqueó: %(names)s tenían la mano que menos vale (%(least)s puntos)"
                " y cobran a cada uno la diferencia con la suya: %(gained)s.",
                least,
            ) % args
        return ngettext(
            "La mesa se bloqueó: %(names)s tenía la mano que menos vale (%(least)s punto) y"
            " cobra a cada uno la diferencia con la suya: %(gained)s.",
            "La mesa se bloqueó: %(names)s tenía la mano que menos vale (%(least)s puntos) y"
            " cobra a cada uno la diferencia con la suya: %(gained)s.",
            least,
        ) % args
    return _(
        "%(names)s se quedó sin cartas y gana %(gained)s: la suma de lo que les quedó en la"
        " mano a los demás."
    ) % {"names": names, "gained": gained}


def round_summary(snapshot: TableSnapshot) -> dict[str, Any] | None:
    """After a round: who won what and why, every hand left (now public) with its points,
    the scoreboard and how far each player is from the target; after a match, its result."""
    table, state, match = snapshot.table, snapshot.round, snapshot.match
    if table.status not in (Table.Status.ROUND_OVER, Table.Status.MATCH_OVER) or state is None:
        return None
    hands = ocholoco.revealed_hands(state)
    penalty = match.rules.scoring == "penalty"
    rows = []
    for player, number in enumerate(table.seats_in_play()):
        hand = cards_info(hands[player])
        rows.append(
            {
                "name": snapshot.seats[number].name,
                "hand": hand,
                "hand_points": sum(ocholoco.card_points(match.rules, c) for c in hands[player]),
                "gained": state.round_points[player],
                "total": match.totals[player],
                "to_go": max(0, match.target - match.totals[player]),
                "round_winner": player in state.winners,
                "winner": player in match.winners if match.finished else False,
            }
        )
    winners = [r["name"] for r in rows if r["round_winner"]]
    # The final standings: the best first (the lowest with penalty scoring).
    standings = sorted(rows, key=lambda r: r["total"], reverse=not penalty)
    return {
        "rows": rows,
        "standings": standings,
        "blocked": state.blocked,
        "round_winners": winners,
        "outcome_text": _outcome_text(rows, blocked=state.blocked, penalty=penalty),
        "match_over": match.finished,
        "match_winners": (
            wording.and_list(r["name"] for r in rows if r["winner"]) if match.finished else ""
        ),
        "match_winners_count": sum(r["winner"] for r in rows),
        "winners_total": standings[0]["total"],
        "target": match.target,
        "target_text": target_text(match.rules, match.target),
        "penalty": penalty,
        "proof": round_proof(table),
    }


def panel_context(
    snapshot: TableSnapshot, seat: Seat | None, summary: dict[str, Any] | None
) -> dict[str, Any]:
    """The private part for one seat (hand, buttons), or for the watchers if `seat` is None."""
    table = snapshot.table
    context: dict[str, Any] = {
        "words": frame_words.frame_words(),
        "table": table,
        "status": table.status,
        "version": table.version,
        "seat": seat,
        "invitation_url": snapshot.invitation_url,
        "summary": summary,
        "is_host": seat is not None and seat.number == table.host_seat,
        "free_numbers": [n for n in range(table.seat_count) if n not in snapshot.seats],
        "levels": ROBOT_LEVELS,
        "seated_count": len(snapshot.seats),
        "robots": [s for s in snapshot.seats.values() if s.is_robot],
    }
    player = table.player_of_seat(seat.number) if seat is not None else None
    state = snapshot.round
    if summary is not None and player is not None:
        context["outcome"] = "won" if player in state.winners else "lost"
    if player is None or state is None or table.status == Table.Status.LOBBY:
        return context
    view = ocholoco.view_for(state, player)
    my_turn = table.status == Table.Status.PLAYING and view.turn == player
    legal = ocholoco.legal_moves(state) if my_turn else []
    plays: dict[str, list[Any]] = {}
    draw = pass_ = catch = None
    can_announce = False
    for move in legal:
        if isinstance(move, ocholoco.Play):
            if move.announce:
                can_announce = True  # the same plays, saying "¡Última carta!" (the checkbox)
            else:
                plays.setdefault(str(move.card), []).append(move)
        elif isinstance(move, ocholoco.Draw):
            draw = ocholoco.move_to_str(move)
        elif isinstance(move, ocholoco.Pass):
            pass_ = ocholoco.move_to_str(move)
        elif isinstance(move, ocholoco.Catch):
            catch = ocholoco.move_to_str(move)
    hand = []
    for info, card in zip(cards_info(view.hand), view.hand, strict=True):
        moves = plays.get(str(card), [])
        info["playable"] = bool(moves)
        info["move"] = ocholoco.move_to_str(moves[0]) if moves else ""
        info["suit_moves"] = [
            {"suit": suit_info(m.suit), "move": ocholoco.move_to_str(m)} for m in moves if m.suit
        ]
        info["needs_suit"] = len(info["suit_moves"]) > 1
        why_not = None if moves or not my_turn else ocholoco.why_not_playable(state, card)
        info["why_not"], info["spoken_why"] = wording.card_refusal(why_not) if why_not else NO
        info["spoken_reason"] = wording.card_refusal_reason(why_not) if why_not else ""
        hand.append(info)
    context.update(
        hand=hand,
        hand_grid=hand_grid(len(hand)),
        my_turn=my_turn,
        draw_move=draw,
        pass_move=pass_,
        catch_move=catch,
        can_announce=can_announce,
        pending_draw=view.pending_draw,
        in_match=True,
    )
    if my_turn:
        context.update(
            turn_key=f"{table.deal_commitment[:16]}.{ocholoco.turn_began_at(view.history, player)}",
            turn_hint=_turn_hint(view),
        )
    return context


def _turn_hint(view: Any) -> str:
    """What the turn asks, said with "Tu turno": "roba 2", "el palo es picas"."""
    named = view.active_suit if view.active_suit != view.top.suit else None  # an 8, a joker
    return wording.turn_hint(view.pending_draw, named)


@dataclass(frozen=True)
class AudienceContexts:
    """What each audience of a table is shown at one version, as template contexts built once:
    the board (everybody's) and the panels, `None`'s the watchers' and each person's seat's
    by its number (a seat whose person left shares the watchers' context: nobody proves it)."""

    board: dict[str, Any]
    panels: dict[int | None, dict[str, Any]]


def audience_contexts(
    snapshot: TableSnapshot, seats: Iterable[Seat] | None = None
) -> AudienceContexts:
    """Every audience's context of `snapshot`, the round's summary made once for them all.
    `seats`: the seats wanted besides the watchers (every person's, by default)."""
    summary = round_summary(snapshot)
    watchers = panel_context(snapshot, None, summary)
    panels: dict[int | None, dict[str, Any]] = {None: watchers}
    wanted = snapshot.seats.values() if seats is None else seats
    for seat in wanted:
        if seat.is_robot:
            continue
        panels[seat.number] = watchers if seat.abandoned else panel_context(snapshot, seat, summary)
    return AudienceContexts(board=board_context(snapshot), panels=panels)
