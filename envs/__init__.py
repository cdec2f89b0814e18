"""hexdojo environments: the rules engine (``hexdojo.envs.rules``) and the RL wrappers."""
