"""Tables: seats, lobby, game session, spectators and talk, and the factory that holds them."""
