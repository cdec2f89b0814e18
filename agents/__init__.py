"""hexdojo agents: scripted, search and learned fighters, training, tournaments, CLI."""
