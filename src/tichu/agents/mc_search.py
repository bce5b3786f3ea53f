"""Search over every decision for the Monte Carlo agent (issue 13, part 2): its options.

:class:`SearchOptions` holds every switch in one place. :data:`SEARCH` (all on) is
``montecarlo``; :data:`V1` (all off) is ``montecarlo:v1``, the agent as it was before:
plays searched with uniform deals and rollouts whose policy never bombs out of turn nor calls,
every other decision the heuristic's.

Rollouts step the game's own flow (:func:`~tichu.agents.support.rollout.rollout`): the
options say only whether the rollout policy takes the bombs (the heuristic's
:meth:`~tichu.agents.heuristic_policy.HeuristicPolicy.choose_bomb`, R4.3) and the calls (the
rule policy's cheap test, R6.1) it is offered. The worlds of every decision, from Grand Tichu
on, are drawn by :class:`~tichu.agents.support.worlds.WorldSampler`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from tichu.core.frozen import by_fields


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """What the Monte Carlo agent searches and how (every switch of issue 13 part 2).

    :ivar rollout_bombs: The rollouts' policy throws the bombs it is offered out of turn like
        the heuristic (R4.3); else it declines them.
    :ivar rollout_calls: The rollouts' policy calls Tichu when offered like the rule policy (R6.1;
        never for the searching seat); else it declines.
    :ivar inference: Deals weighted by passes and calls (:mod:`tichu.agents.support.inference`).
    :ivar tichu: Tichu calls by rollouts with and without the call (R6.1).
    :ivar grand: Grand Tichu by rollouts of whole rounds (R2.1).
    :ivar push: The push chosen among the heuristic's candidates by rollouts (R2.3).
    :ivar wish: The wish chosen among a few candidates by rollouts (R5.1).
    :ivar dragon: The Dragon gift by rollouts (R4.5).
    :ivar bomb: Out-of-turn bombs by rollouts, bomb against no bomb (R4.3).
    :ivar call_margin: Points per round by which calling must beat not calling.
    :ivar tichu_first: Least share of the rollouts with the call in which the caller goes
        out first for a Tichu call (the rollouts' opponents are weaker than real ones), as
        the lower end of the share's Wilson interval at :attr:`first_z` standard errors.
    :ivar grand_first: The same for Grand Tichu.
    :ivar first_z: Standard errors of that lower end: fewer than six deals cannot make
        or refuse a call, and the tuned heuristic's call decides instead.
    :ivar first_heuristic: Rank the candidates, roll out and make every unsearched decision
        with the first heuristic (``heuristic:v1``'s weights) instead of the tuned one.
    :ivar deviate_z: Standard errors by which a searched branch must lead the heuristic's
        choice (paired over the deals) to replace it, in the push, wish, Dragon and bomb searches.
    """

    rollout_bombs: bool = True
    rollout_calls: bool = True
    inference: bool = True
    tichu: bool = True
    grand: bool = True
    push: bool = True
    wish: bool = True
    dragon: bool = True
    bomb: bool = True
    call_margin: float = 0.0
    tichu_first: float = 0.7
    grand_first: float = 0.7
    first_z: float = 1.5
    deviate_z: float = 1.0
    first_heuristic: bool = False

    def __reduce__(self) -> tuple[type[SearchOptions], tuple[Any, ...]]:
        """Pickle through the constructor (:func:`tichu.core.frozen.by_fields`): also compiled."""
        return by_fields(self)

    @property
    def rollout_extras(self) -> bool:
        """Whether rollouts differ from v1's."""
        return self.rollout_bombs or self.rollout_calls

    def describe(self) -> str:
        """The searches that are on, for logs and docs (``v1`` or ``plays`` with none)."""
        return ",".join(field.name for field in fields(self) if field.name != "first_heuristic"
                        and isinstance(getattr(self, field.name), bool) and getattr(self, field.name)) \
            or ("v1" if self.first_heuristic else "plays")


#: Everything on: ``montecarlo``.
SEARCH = SearchOptions()
#: Everything off: ``montecarlo:v1``, today's agent.
V1 = replace(SEARCH, rollout_bombs=False, rollout_calls=False, inference=False, tichu=False, grand=False,
             push=False, wish=False, dragon=False, bomb=False, first_heuristic=True)
#: ``montecarlo:plays``: plays searched as in v1, but ranked, rolled out and every other
#: decision made by the tuned heuristic (its calls, push, wish, Dragon and bombs).
PLAYS = replace(V1, first_heuristic=False)


__all__ = ["PLAYS", "SEARCH", "V1", "SearchOptions"]
