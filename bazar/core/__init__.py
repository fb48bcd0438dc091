"""The engine every game shares: tiles, moves, rules and variants, the round, views,
outcomes, ledgers and matches, records and errors. Nothing here knows a game by name."""
