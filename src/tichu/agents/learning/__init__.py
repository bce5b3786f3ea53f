"""Agents that learn: the fixed action catalogue, the observation vector, and the agent that
plays a policy over them (the PettingZoo environment of :mod:`tichu.learn` uses the same)."""
