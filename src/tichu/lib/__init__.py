"""Libraries the agents share: hand analysis, what a seat knows, probabilities."""
