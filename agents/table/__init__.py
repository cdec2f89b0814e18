"""``hexdojo table``: the GM's table in a browser (issue 31).

A local web app over the engine: an SVG hex board, a position set up by hand, an agent's
advice, play against NPCs with grouped menus, undo, saved fights and their replay. The
page holds no rules: every legal list, reason, odds figure and name comes from the engine
and the agents' own code through :mod:`.session` and :mod:`.view`; :mod:`.server` is the
HTTP face (Starlette, validated by the pydantic models of :mod:`.models`).
"""
