"""A client of the WebSocket protocol: table state, connection, bots and a terminal console."""
