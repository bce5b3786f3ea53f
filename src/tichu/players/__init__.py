"""Players at a table: the :class:`Player` interface, agents, and the scripted player for tests."""

from tichu.players.agent import Agent
from tichu.players.player import Event, Player
from tichu.players.random_agent import RandomAgent
from tichu.players.scripted import ScriptedPlayer

__all__ = ["Agent", "Event", "Player", "RandomAgent", "ScriptedPlayer"]
