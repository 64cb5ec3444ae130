"""The Django app: games, seats, logs, the move service, live updates, bots and the API."""
