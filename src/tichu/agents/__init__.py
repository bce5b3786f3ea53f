"""The agents: players that decide by computation, from their seat's view only (R8)."""
