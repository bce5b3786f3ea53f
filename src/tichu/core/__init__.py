"""The rules core: cards, combinations, a round and a game as pure, synchronous code."""
