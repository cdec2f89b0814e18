"""``python -m hexdojo.agents.cli``: the ``hexdojo`` script without its installed entry point."""

from . import main

main()
