"""A client of the WebSocket protocol: table state, connection, bots and a terminal console.

One module per job, each importing only those above it in this list (so there is no
import cycle; a brain sees the connection as the protocol :class:`~tichu.client.bots.Seat`):

- :mod:`~tichu.client.messages`: the edge: frames read into the server's wire types and
  commands written (:mod:`tichu.server.wire.outgoing`, :mod:`tichu.server.wire.incoming`), and
  the error code sets;
- :mod:`~tichu.client.state`: one seat's view of the table, kept from the notifications;
- :mod:`~tichu.client.bots`: what decides for a seat (``Brain``, ``RandomBrain``);
- :mod:`~tichu.client.connection`: the socket, the receive loop, the message logs;
- :mod:`~tichu.client.console`: people at a terminal (``tichu-client``).
"""
