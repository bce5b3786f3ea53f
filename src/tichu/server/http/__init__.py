"""The server's HTTP routes: the page, its health, and the JSON APIs."""
