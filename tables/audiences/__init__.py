"""What each audience of a table sees: the public board, each seat's panel, the watchers' panel,
the log told in Spanish, finished rounds; and the one render path."""
