"""Each running game's journal: :class:`GameJournal` follows one game at a table (an observer of
its engine) and queues its journal entries (:mod:`tichu.records.journal`) to the
:class:`~tichu.server.workers.store_writer.StoreWriter` as they happen, so that a server that
stops or crashes can rebuild the game."""

from __future__ import annotations

from tichu.core.views import TableSource
from tichu.engine.events import Event
from tichu.records.journal import JournalCursor
from tichu.server.workers.store_writer import StoreWriter


class GameJournal:
    """Writes one game of a table down as it is played: an observer of its engine.

    :ivar game_id: The game's id (its record's id at the end).
    """

    def __init__(self, writer: StoreWriter, game_id: str, table: TableSource, written: int = 0) -> None:
        """Follow a game.

        :param writer: The store's writer.
        :param game_id: The game's id (stored with :meth:`GameStore.begin_game` before).
        :param table: The game's table (its round is read after each event).
        :param written: Entries stored already (a game that goes on after a restart).
        """
        self.game_id = game_id
        self.cursor = JournalCursor()
        self._writer = writer
        self._table = table
        self._written = written

    def notify(self, event: Event) -> None:
        """After each event, queue what the round has newly accepted."""
        entries = self.cursor.new_entries(self._table.round)
        if entries:
            first, game_id = self._written, self.game_id
            self._written += len(entries)
            self._writer.submit(lambda store: store.running.append_entries(game_id, first, entries))
