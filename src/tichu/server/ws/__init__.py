"""The WebSocket edge: a client's socket, its frames parsed and dispatched, its seat's peer."""
