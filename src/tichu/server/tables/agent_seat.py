"""An agent at a server's table: the engine's player port, computed off the event loop.

In the Arena an agent answers at once (:class:`~tichu.agents.agent.AgentPlayer`). At a
server every decision of the same agent comes :class:`~tichu.engine.player.Later`: it is
computed in the server's :class:`~tichu.server.workers.agent_pool.AgentPool` (a worker process, on
the frozen view), so that neither a Monte Carlo search nor the many small decisions of
many tables hold up the event loop. A play takes at least the table's delay while people
follow the table (one sits at it, or one who left may come back), so they can follow it (the
thinking counts towards it). An interrupt
before the answer is there makes it stale: the engine asks again, and the stale decision
leaves the agent as it was (its random generator included).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tichu.agents.agent import Agent
from tichu.agents.levels import agent_spec
from tichu.agents.registry import make_agent
from tichu.agents.stand_in import StandIn
from tichu.core.combos import Play
from tichu.core.views import SeatView
from tichu.engine.player import Later, Player
from tichu.server.tables.options import TableOptions
from tichu.server.wire.protocol import agent_name
from tichu.server.workers.agent_pool import AgentPool

#: Makes the agent of an empty seat from an agent kind and a display name.
AgentFactory = Callable[[str, str], Agent]


def registry_agent(kind: str, name: str) -> Agent:
    """The default :data:`AgentFactory`: an unseeded agent of the registry."""
    return make_agent(kind, name=name)


class ServerAgent(Player):
    """An agent seated at a server's table: it decides like any agent, in the agent pool.

    :ivar agent: The agent that decides (a copy of it decides in a worker; its state comes back).
    :ivar pool: Where its decisions are computed.
    :ivar delay: Seconds a play takes at least while people follow the table.
    """

    listens = False

    def __init__(self, agent: Agent, pool: AgentPool, delay: float, paced: Callable[[], bool]) -> None:
        """Seat an agent.

        :param agent: The agent.
        :param pool: The server's agent pool.
        :param delay: Seconds a play takes at least while people follow the table.
        :param paced: Tells whether people follow the table now (one sits at it, or one who left
            may come back to it).
        """
        super().__init__(agent.name)
        self.agent = agent
        self.kind = agent.kind
        self.reads_table = agent.reads_table
        self.pool = pool
        self.delay = delay
        self._paced = paced

    def grand_tichu(self, view: SeatView) -> Later[bool]:
        return Later(self.pool.decide(self.agent.decide_grand_tichu, view))

    def schupf(self, view: SeatView) -> Later[tuple[int, int, int]]:
        return Later(self.pool.decide(self.agent.decide_schupf, view))

    def play(self, view: SeatView, legal: Sequence[Play]) -> Later[Play]:
        pause = self.delay if self._paced() else 0.0
        return Later(self.pool.decide(self.agent.decide_play, view, legal, pause=pause))

    def wish(self, view: SeatView, choices: Sequence[int]) -> Later[int]:
        return Later(self.pool.decide(self.agent.decide_wish, view, choices))

    def give_dragon(self, view: SeatView, recipients: Sequence[int]) -> Later[int]:
        return Later(self.pool.decide(self.agent.decide_dragon, view, recipients))

    def offer_tichu(self, view: SeatView) -> Later[bool]:
        return Later(self.pool.decide(self.agent.decide_tichu, view))

    def offer_bomb(self, view: SeatView, bombs: Sequence[Play]) -> Later[Play | None]:
        return Later(self.pool.decide(self.agent.decide_bomb, view, bombs))


class SeatAgents:
    """Makes a table's agents: the agents of its empty seats and its people's stand-ins, of the
    kind its options name."""

    def __init__(self, agents: AgentFactory, pool: AgentPool, delay: float, options: TableOptions,
                 followed: Callable[[], bool]) -> None:
        """:param agents: Makes an agent from a kind and a name (tests seed them).
        :param pool: Where the agents' decisions are computed.
        :param delay: Seconds a play takes at least while people follow the table.
        :param options: The table's options (their agent kind).
        :param followed: Whether people follow the table now (its agents' plays are paced then).
        """
        self._agents = agents
        self._pool = pool
        self._delay = delay
        self._options = options
        self._followed = followed

    def agent(self, seat: int) -> Agent:
        """A new agent of the table's kind for a seat."""
        return self._agents(agent_spec(self._options.agent), agent_name(seat))

    def stand_in(self, seat: int) -> StandIn:
        """The agent that decides for a seat's person while they are away or after they left: the
        table's agent, but calling no Tichu or Grand Tichu for them (docs/server.md, "The stand-in's
        rules")."""
        return StandIn(self.agent(seat))

    def player(self, agent: Agent) -> ServerAgent:
        """An agent as a player of this table's engine, paced while a person sits at the table
        or may come back to it (one who left this game), so that a person back within seconds
        finds the round where it was."""
        return ServerAgent(agent, self._pool, self._delay, self._followed)
