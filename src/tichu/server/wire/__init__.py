"""The wire: the protocol's messages as types and JSON, a client's bounded connection, its seat."""
