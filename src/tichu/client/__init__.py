"""A client of the WebSocket protocol: table state, connection, bots and a terminal console.

One module per job, each importing only those above it in this list (so there is no
import cycle; :mod:`~tichu.client.bots` names the connection in type hints only):

- :mod:`~tichu.client.messages`: the JSON object type and the error code sets they share;
- :mod:`~tichu.client.state`: one seat's view of the table, kept from the notifications;
- :mod:`~tichu.client.bots`: what decides for a seat (``Brain``, ``RandomBrain``);
- :mod:`~tichu.client.connection`: the socket, the receive loop, the message logs;
- :mod:`~tichu.client.console`: people at a terminal (``tichu-client``).
"""
