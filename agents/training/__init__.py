"""NPC training (``hexdojo train``, ``hexdojo run``), one concern per module.

* :mod:`.ppo`       the entry, read top to bottom: config -> vector env -> model -> learn -> save
* :mod:`.config`    ``TrainConfig`` and its parts, every field documented (the docs' table)
* :mod:`.vecenv`    the vectorised duel (or scene) environments, side swapping, the env timer
* :mod:`.pool`      the opponent pool: the scripted ladder and the learner's snapshots
* :mod:`.callbacks` checkpoints, snapshots, evaluations and progress during learning
* :mod:`.evaluate`  win rates against named opponents, or inside an environment
* :mod:`.rundir`    the run folder and every file written into it (atomically)
* :mod:`.cli`       the ``train`` and ``run`` commands

Importing this package imports nothing heavy: torch and Stable-Baselines3 load with
:mod:`.ppo`, :mod:`.vecenv` and :mod:`.callbacks` only, so the CLI works without the rl
extra.
"""
