"""The WebSocket edge: a client's socket accepted, its frames parsed and dispatched to its table."""
