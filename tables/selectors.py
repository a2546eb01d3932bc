"""Reads: what each audience of a table may see, as plain template contexts.

There are three audiences (docs/architecture.md, "The flow of one move"): everyone (the public
board), each seat (its hand and its buttons) and the watchers (people without a seat). What goes
into a context is decided here, from the proven seat, before any template runs: a template is
never given a card its viewer may not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Q
from django.http import Http404

import ocholoco
from tables import clock
from tables.models import Seat, Table, TableEvent, TableRound
from tables.snapshot import TableSnapshot

SUIT_CLASS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def target_text(rules: ocholoco.RuleSet, target: int) -> str:
    if rules.scoring == "penalty":
        return f"la partida termina a {target} puntos y gana quien tenga menos"
    return f"se gana con {target} puntos"


def hand_grid(count: int) -> tuple[int, int, int, int]:
    """How a hand is laid out: (columns, rows) on a phone, then (columns, rows) on a wider
    screen. One row while it fits, then two; a phone takes a third row past 14 cards so that
    no card gets too small to tap."""
    count = max(count, 1)
    narrow_rows = 1 if count <= 7 else 2 if count <= 14 else 3
    wide_rows = 1 if count <= 10 else 2 if count <= 24 else 3
    return -(-count // narrow_rows), narrow_rows, -(-count // wide_rows), wide_rows


def card_info(card: ocholoco.Card, label: str | None = None) -> dict[str, str]:
    """What a face-up card shows. `label` tells apart two copies of a card (two decks):
    "10H" and "10H#2" in `data-card`. The markup is the same in every deck design: the
    stylesheet draws the pips and the figures from the card's rank and suit classes and the
    page's deck class."""
    if card.is_joker:
        return {
            "code": label or str(card), "rank": "★", "suit": "", "symbol": "★",
            "suit_class": "joker", "rank_class": "joker", "name": ocholoco.card_name(card),
        }
    return {
        "code": label or str(card),
        "rank": card.rank,
        "suit": card.suit,
        "symbol": ocholoco.SUIT_SYMBOLS[card.suit],
        "suit_class": SUIT_CLASS[card.suit],
        "rank_class": card.rank,
        "name": ocholoco.card_name(card),
    }


def cards_info(cards: Sequence[ocholoco.Card]) -> list[dict[str, str]]:
    labels = ocholoco.copy_labels(cards)
    return [card_info(card, label) for card, label in zip(cards, labels, strict=True)]


def suit_info(suit: str) -> dict[str, str]:
    return {
        "code": suit,
        "symbol": ocholoco.SUIT_SYMBOLS[suit],
        "name": ocholoco.SUIT_NAMES[suit],
        "suit_class": SUIT_CLASS[suit],
    }


def _move_text(snapshot: TableSnapshot, event: ocholoco.Event) -> str:
    seats, order = snapshot.seats, snapshot.table.match_seats
    return ocholoco.describe_event(event, lambda player: seats[order[player]].name)


def board_context(snapshot: TableSnapshot) -> dict[str, Any]:
    """The public part: seats, counts, scores, top card, stock, direction, whose turn."""
    table, state, match = snapshot.table, snapshot.round, snapshot.match
    in_play = table.status == Table.Status.PLAYING
    public = ocholoco.view_for(state, 0) if state is not None else None
    players = []
    for number in range(table.seat_count):
        seat = snapshot.seats.get(number)
        player = snapshot.player_of(number) if table.match_seats else None
        entry: dict[str, Any] = {"number": number, "seat": seat, "in_match": player is not None}
        if seat is not None:
            entry.update(
                name=seat.name,
                is_host=number == table.host_seat,
                is_robot=seat.plays_as_robot,
                level=seat.get_robot_level_display() if seat.plays_as_robot else "",
            )
        if player is not None and public is not None:
            count = public.hand_sizes[player]
            entry.update(
                count=count,
                fan=range(min(count, 12)),
                is_turn=in_play and public.turn == player,
                score=match.totals[player] if match else 0,
            )
        players.append(entry)

    context: dict[str, Any] = {
        "table": table,
        "version": table.version,
        "rules": table.rules,
        "players": players,
        "status": table.status,
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
            last_seat=table.match_seats[last.player] if last else "",
            last_card=str(last.card) if last and last.card else "",
            top=card_info(public.top),
            active_suit=suit_info(public.active_suit) if public.active_suit else None,
            suit_changed=public.active_suit is not None and public.active_suit != public.top.suit,
            stock=public.stock_size,
            direction=public.direction,
            pending_draw=public.pending_draw,
            deadline=table.turn_deadline.isoformat() if in_play and table.turn_deadline else "",
            turn_name=(
                snapshot.seats[table.match_seats[public.turn]].name if in_play else ""
            ),
            last_moves=[_move_text(snapshot, e) for e in history[-3:]][::-1],
            match=match,
            target_text=target_text(match.rules, match.target) if match else "",
            # After a round ends the match already counts the next one; show the one just played.
            round_number=match.round_number - (0 if in_play else 1) if match else 0,
        )
    return context


def _outcome_text(rows: list[dict[str, Any]], *, blocked: bool, penalty: bool) -> str:
    """Who won the round, what and why, in one or two sentences a first-timer can read."""
    winners = [r for r in rows if r["round_winner"]]
    names = _names([r["name"] for r in winners]) if winners else ""
    plural = len(winners) > 1
    if penalty:
        how = "La mesa se bloqueó. " if blocked else f"{names} se quedó sin cartas. "
        return how + (
            "Cada uno se anota los puntos que le quedaron en la mano; al final gana quien"
            " sume menos."
        )
    gained = " y ".join(f"+{r['gained']}" for r in winners)
    if blocked:
        least = winners[0]["hand_points"] if winners else 0
        return (
            f"La mesa se bloqueó: {names} tenía{'n' if plural else ''} la mano que menos vale"
            f" ({least} punto{'s' if least != 1 else ''}) y cobra{'n' if plural else ''} a cada"
            f" uno la diferencia con la suya: {gained}."
        )
    return (
        f"{names} se quedó sin cartas y gana {gained}: la suma de lo que les quedó en la"
        " mano a los demás."
    )


def round_summary(snapshot: TableSnapshot) -> dict[str, Any] | None:
    """After a round: who won what and why, every hand left (now public) with its points,
    the scoreboard and how far each player is from the target; after a match, its result."""
    table, state, match = snapshot.table, snapshot.round, snapshot.match
    if table.status not in (Table.Status.ROUND_OVER, Table.Status.MATCH_OVER) or state is None:
        return None
    hands = ocholoco.revealed_hands(state)
    penalty = match.rules.scoring == "penalty"
    rows = []
    for player, number in enumerate(table.match_seats):
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
        "match_winners": _names([r["name"] for r in rows if r["winner"]]) if match.finished else "",
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
        "table": table,
        "version": table.version,
        "seat": seat,
        "summary": summary,
        "is_host": seat is not None and seat.number == table.host_seat,
        "free_numbers": [n for n in range(table.seat_count) if n not in snapshot.seats],
        "levels": Seat.Level.choices,
        "seated_count": len(snapshot.seats),
        "robots": [s for s in snapshot.seats.values() if s.is_robot],
    }
    player = snapshot.player_of(seat.number) if seat is not None else None
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
        info["why_not"] = "" if moves or not my_turn else ocholoco.why_not_playable(state, card)
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
    return context


# Seconds a table with only robots left waits on a round's end before dealing the next.
ROBOTS_NEXT_ROUND_DELAY = 5.0


def turn_due_in(snapshot: TableSnapshot, robot_delay: float) -> float | None:
    """Seconds until a robot has something to do at the table, or None: a robot's turn is due
    after `robot_delay`; a person's turn when their time runs out; the next round at a table
    where only robots are left after `ROBOTS_NEXT_ROUND_DELAY`."""
    table = snapshot.table
    if table.status == Table.Status.ROUND_OVER and all(
        snapshot.seats[number].plays_as_robot for number in table.match_seats
    ):
        return ROBOTS_NEXT_ROUND_DELAY  # nobody is left to tap SIGUIENTE RONDA
    if table.status != Table.Status.PLAYING or snapshot.round is None:
        return None
    seat = snapshot.seats.get(table.match_seats[snapshot.round.turn])
    if seat is None:
        return None
    if seat.plays_as_robot:
        return robot_delay
    if table.turn_deadline is None:
        return None
    return max(0.0, (table.turn_deadline - clock.now()).total_seconds())


def table_at(table_id: int, version: int) -> TableSnapshot | None:
    """The table as it is, if it is still at `version` (read without a lock)."""
    table = Table.objects.filter(pk=table_id, version=version).first()
    return None if table is None else TableSnapshot.load(table)


def tables_awaiting_turn(robot_delay: float) -> list[tuple[int, int, float]]:
    """(table id, version, seconds until due) of every table in play waiting on a robot:
    a robot to move, a person with a turn limit, robots to deal on."""
    pending = []
    in_play = [Table.Status.PLAYING, Table.Status.ROUND_OVER]
    for table in Table.objects.filter(status__in=in_play).prefetch_related("seats"):
        due = turn_due_in(TableSnapshot.load(table), robot_delay)
        if due is not None:
            pending.append((table.pk, table.version, due))
    return pending


def tables_of_browser(secrets_by_table: dict[str, str]) -> list[dict[str, Any]]:
    """My tables: every table this browser holds a seat at, "te toca" first, then newest."""
    ids = [int(pk) for pk in secrets_by_table if pk.isdigit()]
    rows = []
    for table in Table.objects.filter(pk__in=ids).prefetch_related("seats"):
        snapshot = TableSnapshot.load(table)
        secret = secrets_by_table[str(table.pk)]
        mine = next((s for s in snapshot.seats.values() if s.secret_matches(secret)), None)
        if mine is None:
            continue
        state, match = snapshot.round, snapshot.match
        turn_number = (
            table.match_seats[state.turn]
            if table.status == Table.Status.PLAYING and state is not None else None
        )
        others = []
        for number, seat in sorted(snapshot.seats.items()):
            player = snapshot.player_of(number)
            others.append({
                "name": seat.name,
                "me": seat.pk == mine.pk,
                "robot": seat.plays_as_robot,
                "score": match.totals[player] if match and player is not None else None,
            })
        rows.append({
            "table": table,
            "players": others,
            "my_turn": turn_number == mine.number,
            "turn_name": snapshot.seats[turn_number].name if turn_number is not None else "",
            "rules": table.rules.label,
        })
    rows.sort(key=lambda r: r["table"].created_at, reverse=True)
    rows.sort(key=lambda r: not r["my_turn"])
    return rows


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " y " + items[-1]


def event_text(event: TableEvent, seats: dict[int, Seat]) -> str | None:
    """One sentence for a table event that is not a move (the chat's lines, and "Mientras no
    estabas"), or None for the events that tell nobody anything (a link renewed...)."""
    data = event.data

    def name_of(number: int | None) -> str:
        seat = seats.get(number) if number is not None else None
        # A seat's current name (a moderator may have changed an offensive one), unless the
        # seat was taken again by someone else after the event.
        if seat is not None and seat.created_at <= event.created_at:
            return seat.name
        return data.get("name") or "Alguien"

    who = name_of(event.seat)
    match event.kind:
        case "opened":
            return f"{who} abrió la mesa."
        case "seated":
            return f"{who} se sentó a la mesa."
        case "robot_added":
            return f"Se sumó {data.get('name', who)}, un robot."
        case "robot_removed":
            return f"Salió el robot {data.get('name', who)}."
        case "left":
            return f"{data.get('name', who)} se levantó de la mesa."
        case "abandoned":
            return f"{who} abandonó: un robot juega su lugar."
        case "host_changed":
            return f"Ahora {who} maneja la mesa."
        case "match_started":
            return "Empezó la partida."
        case "round_started":
            dealer = name_of(data.get("dealer"))
            return f"Empezó la ronda {data.get('round', '')}: reparte {dealer}."
        case "round_over":
            points = {int(n): p for n, p in data.get("points", {}).items()}
            blocked = "La mesa se bloqueó: " if data.get("blocked") else ""
            if data.get("scoring") == "penalty":
                added = ", ".join(f"{name_of(n)} +{p}" for n, p in sorted(points.items()) if p)
                return f"{blocked}Fin de la ronda. Puntos en contra: {added or 'ninguno'}."
            gained = {n: p for n, p in points.items() if p}
            if not gained:
                return f"{blocked}La ronda terminó sin puntos."
            best = max(gained.values())
            winners = _names([name_of(n) for n in sorted(gained) if gained[n] == best])
            verb = "ganan" if len(gained) > 1 else "ganó"
            return f"{blocked}{winners} {verb} la ronda con {best} punto{'s' if best != 1 else ''}."
        case "match_over":
            winners = [name_of(n) for n in data.get("winners", [])]
            verb = "ganan" if len(winners) > 1 else "ganó"
            return f"¡{_names(winners)} {verb} la partida!" if winners else "Terminó la partida."
        case "rematch":
            return "¡Revancha! Nueva partida en la misma mesa."
        case "closed":
            return f"La moderación cerró la mesa: {data.get('reason', '')}"
        case "replaced_by_robot":
            return f"La moderación puso un robot en el lugar de {who}."
        case "renamed":
            return f"La moderación cambió un nombre: ahora es {data.get('new', who)}."
        case "timeout":
            return f"A {who} se le acabó el tiempo: un robot jugó su turno."
        case "away":
            return f"{who} no volvió en tres turnos: un robot juega por ahora."
        case "back":
            return f"{who} volvió a jugar."
        case "turn_limit":
            limit = dict(Table.TurnLimit.choices).get(data.get("seconds"), "")
            return f"Tiempo por turno: {limit.lower()}."
        case "archived":
            return "La mesa se archivó tras 30 días sin jugadas."
    return None


def _move_events(event: TableEvent, player: int) -> list[ocholoco.Event]:
    """The public events a logged move caused (a penalty's count, a skip, the last card...).
    A move logged before moves kept them is told as the move alone."""
    if "events" in event.data:
        return [ocholoco.event_from_json(e) for e in event.data["events"]]
    move = ocholoco.parse_move(event.data.get("move", ""))
    if isinstance(move, ocholoco.Play):
        return [ocholoco.Event("play", player, move.card, move.suit)]
    return [ocholoco.Event("draw" if isinstance(move, ocholoco.Draw) else "pass", player, count=1)]


def away_summary(table: Table, since_version: int, limit: int = 12) -> list[str]:
    """'Mientras no estabas': what happened at the table after `since_version`, from its log,
    one sentence each. Consecutive draws by one player read as one ("Ana robó 3 cartas")."""
    seats = {s.number: s for s in table.seats.all()}
    order = table.match_seats

    def name_of(player: int) -> str:
        seat = seats.get(order[player]) if player < len(order) else None
        return seat.name if seat else "Alguien"

    lines: list[str] = []
    drawing: list[int] = []  # [player, count] of the draws in course

    def flush() -> None:
        if drawing:
            player, count = drawing
            lines.append(ocholoco.describe_event(ocholoco.Event("draw", player), name_of)
                         if count == 1 else f"{name_of(player)} robó {count} cartas")
            drawing.clear()

    for event in table.events.filter(version__gt=since_version).order_by("id"):
        if event.kind != "move":
            text = event_text(event, seats)
            if text:
                flush()
                lines.append(text.rstrip("."))
            continue
        player = order.index(event.seat) if event.seat in order else 0
        for told in _move_events(event, player):
            if told.kind == "draw":
                if drawing and drawing[0] == told.player:
                    drawing[1] += 1
                else:
                    flush()
                    drawing.extend([told.player, 1])
                continue
            flush()
            lines.append(ocholoco.describe_event(told, name_of))
    flush()
    if len(lines) > limit:
        return ["…", *lines[-limit:]]
    return lines


def round_log(snapshot: TableSnapshot) -> list[str]:
    """Every public event of the round in course (or just ended), oldest first."""
    if snapshot.round is None:
        return []
    seats, order = snapshot.seats, snapshot.table.match_seats
    return [
        ocholoco.describe_event(event, lambda player: seats[order[player]].name)
        for event in snapshot.round.history
    ]


# --- Finished rounds: the deal's proof, the replay, the table's history -------------------
# A round's reveal and its moves with every hand face up are shown only once it is over: the
# functions below read `TableRound.reveal` only for a finished round, and nothing else does.


def round_proof(table: Table) -> dict[str, Any] | None:
    """The last round's reveal (for the summary and the log), once that round is over."""
    record = table.rounds.order_by("-id").first()
    if record is None or not record.finished:
        return None
    return {"id": record.pk, "reveal": record.reveal, "commitment": record.commitment}


def finished_round(table: Table, round_id: int) -> TableRound | None:
    """A round of `table` that is over, or None (unknown, or still being played)."""
    return table.rounds.filter(pk=round_id, finished=True).first()


def _replayed(record: TableRound) -> list[ocholoco.Round]:
    """The finished round again: as dealt, then after each of its moves in the table's log."""
    table = record.table
    events = table.events.filter(kind="move", version__gt=record.start_version)
    later = table.rounds.filter(pk__gt=record.pk).order_by("pk").first()
    if later is not None:
        events = events.filter(version__lte=later.start_version)
    moves = (event.data["move"] for event in events.order_by("id").iterator())
    deal = ocholoco.Deal.parse(record.reveal)
    return ocholoco.replay(table.rules, len(record.seats), record.dealer, deal, moves)


def _player_names(record: TableRound) -> list[str]:
    """The players' names, in the round's player order."""
    names = dict(record.table.seats.values_list("number", "name"))
    return [names.get(number, "?") for number in record.seats]


def round_replay(record: TableRound, step: int) -> dict[str, Any]:
    """One position of a finished round (`step` moves after the deal; past the end: the
    end), with every hand face up and what the last move did."""
    states = _replayed(record)
    last = len(states) - 1
    step = min(step, last)
    state = states[step]
    names = _player_names(record)
    seen = len(states[step - 1].history) if step else 0
    happened = [
        ocholoco.describe_event(event, names.__getitem__) for event in state.history[seen:]
    ]
    players = [
        {
            "name": names[p],
            "hand": cards_info(hand),
            "count": len(hand),
            "is_turn": not state.finished and state.turn == p,
            "dealer": p == record.dealer,
            "winner": p in state.winners,
            "gained": state.round_points[p],
        }
        for p, hand in enumerate(state.hands)
    ]
    return {
        "record": record,
        "table": record.table,
        "step": step,
        "last": last,
        "previous": max(step - 1, 0),
        "following": min(step + 1, last),
        "players": players,
        "happened": happened,
        "top": card_info(state.top),
        "active_suit": suit_info(state.active_suit),
        "suit_changed": state.active_suit != state.top.suit,
        "stock": state.stock_size,
        "direction": state.direction,
        "pending_draw": state.pending_draw,
        "finished": state.finished,
        "winners": [names[p] for p in state.winners],
        "blocked": state.blocked,
    }


def round_fairness(record: TableRound) -> dict[str, Any]:
    """What anyone needs to check a finished round's deal: the commitment, the reveal, the
    hands it dealt and, with the house rules that reshuffle, each reshuffle's pile and the
    order the salt gave it."""
    table = record.table
    deal = ocholoco.Deal.parse(record.reveal)
    states = _replayed(record)
    names = _player_names(record)
    reshuffles = []
    for before, after in zip(states, states[1:], strict=False):
        done = sum(event.kind == "reshuffle" for event in before.history)
        if any(event.kind == "reshuffle" for event in after.history[len(before.history) :]):
            pile = sorted(before.discard[:-1])  # all but its top card
            order = ocholoco.reshuffle_order(deal.salt, done + 1, pile)
            reshuffles.append({
                "number": done + 1,
                "pile": [str(card) for card in pile],
                "order": [str(card) for card in order],
            })
    hands = [[str(card) for card in hand] for hand in states[0].hands]
    hand_size = table.rules.hand_size(len(record.seats))
    return {
        "record": record,
        "table": table,
        # What the browser's check compares with what it computes from the reveal.
        "check": {
            "commitment": record.commitment, "players": len(record.seats),
            "dealer": record.dealer, "hand_size": hand_size, "hands": hands,
            "reshuffles": reshuffles,
        },
        "commitment": record.commitment,
        "reveal": record.reveal,
        "salt": deal.salt,
        "players": len(record.seats),
        "dealer": record.dealer,
        "dealer_name": names[record.dealer],
        "hand_size": hand_size,
        "hands": [
            {"name": names[p], "cards": cards_info(hand)} for p, hand in enumerate(states[0].hands)
        ],
        "reshuffles": reshuffles,
        "rules_reshuffle": table.rules.reshuffles,
    }


def table_history(table: Table) -> list[dict[str, Any]]:
    """Every match played at the table (the newest first), each with its rounds in order:
    the winners, everybody's points and, once a round is over, its replay."""
    names = dict(table.seats.values_list("number", "name"))
    penalty = table.rules.scoring == "penalty"
    matches: dict[int, dict[str, Any]] = {}
    for record in table.rounds.defer("reveal").order_by("id"):
        match = matches.setdefault(
            record.match_number,
            {"number": record.match_number, "rounds": [], "totals": dict.fromkeys(record.seats, 0)},
        )
        points = [(names.get(n, "?"), record.points.get(str(n), 0)) for n in record.seats]
        for number in record.seats:
            match["totals"][number] = (
                match["totals"].get(number, 0) + record.points.get(str(number), 0)
            )
        match["rounds"].append({
            "id": record.pk,
            "number": record.number,
            "finished": record.finished,
            "blocked": record.blocked,
            "winners": [names.get(n, "?") for n in record.winners],
            "points": points,
        })
    current = max(matches, default=0)
    over = table.status == Table.Status.MATCH_OVER
    for number, match in matches.items():
        totals = match["totals"]
        match["totals"] = [(names.get(n, "?"), total) for n, total in totals.items()]
        match["over"] = number != current or over
        if match["over"] and totals:
            best = (min if penalty else max)(totals.values())
            match["winners"] = [names.get(n, "?") for n, t in totals.items() if t == best]
    return sorted(matches.values(), key=lambda m: m["number"], reverse=True)


def table_by_address(code: str) -> Table | None:
    """The table at `code`: its invitation (`Table.code`) or its players' own address."""
    return Table.objects.filter(Q(code=code) | Q(player_code=code)).first()


def table_or_404(code: str) -> Table:
    """The table at `code` for a view, or 404."""
    table = table_by_address(code)
    if table is None:
        raise Http404("Esa mesa no existe.")
    return table
