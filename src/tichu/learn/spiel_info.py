"""What one seat knows of a :class:`~tichu.learn.spiel_position.Position`, as OpenSpiel's
information state and observation: strings and tensors (R8; docs/learning.md).

Everything here is a function of what the seat may know: its own cards, its own held-back
answers (its Grand Tichu answer and its push until every seat has answered, R2.1, R2.3), its
pushed and received cards (R8.2), the public events of the round (every call, play, pass,
bomb, wish and Dragon gift, R8.1, from the core's own event list), who is asked now where that
is public, and the scores. Bomb offers to other seats are not public (the core offers a bomb
only to a seat that holds one, R4.3): the string says nothing while another seat considers one.

- The *information state string* holds the whole round from the seat's side (perfect recall
  within the round); earlier rounds count through the scores and the number of rounds played,
  which is all of them that matters for the rest of the game (R7.4). OpenSpiel's ISMCTS keys its
  tree by it.
- The *observation string* is the seat's view of the moment only.
- Both *tensors* are the learning agents' 620-number observation of the seat's frozen view
  (:func:`~tichu.agents.learning.observation.observe`) followed by :data:`TABLE_SIZE` numbers of
  the game: the share of :attr:`~tichu.learn.spiel_position.Position.max_rounds` played, and each
  team's score over the target score (own team first, clipped to ±2). During a deal the view is
  still that of the round before, as it ended.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tichu.agents.learning.actions import QUESTIONS
from tichu.agents.learning.observation import SIZE as OBSERVATION_SIZE
from tichu.agents.learning.observation import Question, observe
from tichu.core.cards import format_mask
from tichu.core.round import ANNOUNCE_GRAND, ANNOUNCE_TICHU, Action, ActionKind, Decision, Phase
from tichu.core.seats import team_of
from tichu.core.views import SeatView, TableInfo, follow, view_of
from tichu.learn.spiel_position import FIRST_PART, Position

#: The numbers after the observation in a tensor.
TABLE_SIZE = 3
TENSOR_SIZE = OBSERVATION_SIZE + TABLE_SIZE

_ASKED = {Decision.GRAND_TICHU: "grand tichu", Decision.SCHUPF: "push", Decision.PLAY: "play",
          Decision.TICHU: "tichu", Decision.BOMB: "bomb", Decision.WISH: "wish", Decision.DRAGON: "dragon"}


def view_for(position: Position, seat: int) -> SeatView:
    """The seat's frozen view of the position (R8), as our agents get it."""
    info = TableInfo()
    info.is_running = not position.is_terminal
    follow(info, position.core)
    return view_of(info, position.core.round, seat)


def question_for(position: Position, seat: int) -> Question:
    """What the seat is asked now (``NONE`` if it does not decide)."""
    if position.is_terminal or position.is_chance or position.core.decision_seat != seat:
        return Question.NONE
    return QUESTIONS[position.core.decision]


def _event_text(event: Action) -> str:
    kind, seat, value = event
    if kind == ActionKind.PLAY:
        return f"p{seat} {format_mask(event.number())}"
    if kind == ActionKind.PASS:
        return f"p{seat} pass"
    if kind == ActionKind.BOMB:
        return f"p{seat} bomb {format_mask(event.number())}"
    if kind == ActionKind.TICHU:
        return f"p{seat} tichu"
    if kind == ActionKind.WISH:
        return f"p{seat} wish {value}"
    return f"p{seat} dragon to p{value}"


def public_events(position: Position) -> list[str]:
    """The round's public events as text (R8.1), kept in the position as they are needed."""
    round_ = position.core.round
    log = position.public_log
    if round_ is not None and len(log) < len(round_.events):
        log.extend(_event_text(event) for event in round_.events[len(log):])
    return log


def _asked(position: Position, seat: int) -> str:
    """Who is asked what now, where the seat may know it: its own question, and other seats'
    questions but a bomb offer (R4.3: only a seat holding a bomb is offered one)."""
    core = position.core
    asker = core.decision_seat
    if asker is None or asker < 0:
        return ""
    if asker == seat:
        return f"asked {_ASKED[core.decision]}"
    if core.decision == Decision.BOMB:
        return ""
    return f"p{asker} asked {_ASKED[core.decision]}"


def information_state_string(position: Position, seat: int) -> str:
    """The seat's information state: the round so far from its side, and the scores (R8)."""
    core = position.core
    game = core.game
    assert game is not None
    parts = [f"p{seat} rounds {position.rounds_played} score {game.total[0]}:{game.total[1]}"]
    round_ = core.round
    if position.is_terminal:
        parts.append("over")
    elif position.is_chance:
        mine = 0
        for place, card in enumerate(position.dealt[:FIRST_PART]):
            if place % 4 == seat:
                mine |= 1 << card
        parts.append(f"dealing {len(position.dealt)} mine [{format_mask(mine)}]")
    elif round_ is not None:
        parts.append(f"hand [{format_mask(round_.hands[seat])}]")
        if round_.phase == Phase.GRAND_TICHU:
            answer = position.grand[seat]
            if answer is not None:
                parts.append("my grand tichu " + ("yes" if answer else "no"))
        else:
            grand = [f"p{other}" for other in range(4) if round_.announcements[other] == ANNOUNCE_GRAND]
            parts.append("grand tichu " + (" ".join(grand) or "none"))
        if round_.phase == Phase.SCHUPF:
            parts.append(f"my push [{' | '.join(format_mask(card) for card in position.pushes[seat])}]")
        elif round_.phase == Phase.PLAYING:
            given, received = round_.given[seat], round_.received(seat)
            assert given is not None and received is not None
            parts.append(f"gave [{' | '.join(format_mask(card) for card in given)}]")
            parts.append(f"got [{' | '.join(format_mask(card) for card in received)}]")
            parts.append("events [" + ", ".join(public_events(position)) + "]")
        parts.append(_asked(position, seat))
    return "; ".join(parts)


def observation_string(position: Position, seat: int) -> str:
    """The seat's view of the moment (R8), without the round's history."""
    view = view_for(position, seat)
    public = view.public_state()
    calls = {ANNOUNCE_TICHU: "t", ANNOUNCE_GRAND: "g"}
    parts = [f"p{seat} rounds {position.rounds_played} score {public.total[0]}:{public.total[1]}",
             f"hand [{format_mask(view.hand)}]",
             f"counts {' '.join(str(count) for count in public.count_hand_cards)}",
             "calls " + " ".join(calls.get(call, "-") for call in public.announcements),
             f"out {' '.join(f'p{other}' for other in public.out_order) or 'none'}"]
    if view.trick is not None:
        parts.append(f"trick [{format_mask(view.trick.cards)}] by p{view.trick_owner}")
    if public.wish_open:
        parts.append(f"wish {public.wish_value}")
    if position.is_chance:
        parts.append(f"dealing {len(position.dealt)}")
    elif not position.is_terminal:
        parts.append(_asked(position, seat))
    return "; ".join(parts)


def fill_tensor(position: Position, seat: int, tensor: npt.NDArray[np.float32]) -> None:
    """Write the seat's tensor (:data:`TENSOR_SIZE` numbers) into ``tensor``."""
    question = question_for(position, seat)
    pushed = sum(position.pushes[seat]) if question == Question.PUSH else 0
    tensor[:OBSERVATION_SIZE] = observe(view_for(position, seat), question, pushed)
    game = position.core.game
    assert game is not None
    target = game.rules.target_score
    team = team_of(seat)
    tensor[OBSERVATION_SIZE] = position.rounds_played / position.max_rounds
    tensor[OBSERVATION_SIZE + 1] = min(2.0, max(-2.0, game.total[team] / target))
    tensor[OBSERVATION_SIZE + 2] = min(2.0, max(-2.0, game.total[1 - team] / target))


__all__ = ["TABLE_SIZE", "TENSOR_SIZE", "fill_tensor", "information_state_string", "observation_string",
           "public_events", "question_for", "view_for"]
