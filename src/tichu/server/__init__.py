"""The live server: aiohttp WebSocket handler, GameFactory, tables with their lobby, and Peer."""
