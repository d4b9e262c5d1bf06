"""The project's rulebook (RULES.md), installed with cardmc so that every report carries the rules it was played by."""
