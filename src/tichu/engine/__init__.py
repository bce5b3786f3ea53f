"""The engine: runs games over four players and shows each seat only its view (R8).

Imports the rules core only; agents, records, the Arena and the server build on it.
"""
