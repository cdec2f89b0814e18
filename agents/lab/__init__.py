"""The designer's lab: rule A/B comparisons, maneuver ablation, tactics and the meta-game.

Commands ``hexdojo compare``, ``ablate``, ``tactics``, ``sweep`` and ``balance`` (see docs/lab.md).
Every figure carries a 95 % interval; conditions are paired by dice seed.
"""
