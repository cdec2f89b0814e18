"""Masked PPO on hexdojo's native vector env, in one file (CleanRL's ppo.py, with a mask).

Read it top to bottom, copy it, change it. The env is ``hexdojo/Duel-v1`` (a Chu mirror, a
flat observation scaled to [-1, 1], 369 action ids) stepped N at a time inside the native
core, against uniform random legal play by default (``--opponent greedy`` for a scripted
one). Most ids are illegal at any decision, so the policy's logits of the illegal ones are
set to a large negative number before the softmax: the policy never samples them, and their
probability (and gradient) is zero. The mask of each step is stored with its observation,
so the update sees exactly the distribution the rollout sampled from. Reward: +1 a win, -1 a
loss, 0 a draw, at the end of a fight.

    python examples/ppo_masked.py --total-timesteps 200000
    tensorboard --logdir runs

Needs the rl extra (torch, tensorboard). Every ``Args`` field is a command-line option
(``--num-envs 16``; tyro's parser when it is installed, else argparse). Same seed, same
machine: the same run (the env's episodes and torch's draws are seeded; CPU by default).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from dataclasses import dataclass

import gymnasium as gym
import numpy as np
import torch
from torch import nn, optim
from torch.distributions.categorical import Categorical
from torch.utils.tensorboard import SummaryWriter

import hexdojo.envs  # noqa: F401 - registers hexdojo/Duel-v1 and its native vector env


@dataclass
class Args:
    exp_name: str = "ppo_masked"
    """the name of this experiment (the TensorBoard run is runs/{exp_name}__{seed}__{time})"""
    seed: int = 1
    """seed of the env's episodes, numpy, random and torch"""
    torch_deterministic: bool = True
    """torch.use_deterministic_algorithms: the same run from the same seed"""
    cuda: bool = False
    """train on the GPU when there is one (the env itself runs on the CPU)"""
    torch_threads: int = 1
    """torch's CPU threads: for nets this small one is fastest (20x faster than two on a
    busy two-core machine, where threads wait for each other)"""
    log_dir: str = "runs"
    """the folder of the TensorBoard runs"""

    # the environment
    env_id: str = "hexdojo/Duel-v1"
    """the Gymnasium id (its vector entry point is the native vector env)"""
    opponent: str = "random"
    """the opponent: random, or a scripted style with a native player (greedy, striker, ...)"""
    total_timesteps: int = 500_000
    """env steps of the whole run (all envs together)"""
    num_envs: int = 64
    """duels stepped at once in the native core"""
    num_steps: int = 128
    """steps per env in each rollout (a rollout is num_envs * num_steps transitions)"""

    # PPO
    learning_rate: float = 2.5e-4
    """Adam's learning rate"""
    anneal_lr: bool = True
    """decay the learning rate linearly to 0 over the run"""
    gamma: float = 0.99
    """discount factor"""
    gae_lambda: float = 0.95
    """lambda of the generalized advantage estimate"""
    num_minibatches: int = 4
    """minibatches per rollout"""
    update_epochs: int = 4
    """passes over each rollout"""
    norm_adv: bool = True
    """normalize the advantages in each minibatch"""
    clip_coef: float = 0.2
    """the surrogate clipping coefficient"""
    clip_vloss: bool = True
    """clip the value loss as the policy's"""
    ent_coef: float = 0.01
    """entropy bonus (of the masked distribution: only legal actions count)"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """gradient clipping norm"""
    target_kl: float | None = None
    """stop a rollout's epochs early past this approximate KL (None: never)"""
    hidden: int = 256
    """units of each of the two hidden layers of the actor and of the critic"""

    # filled in at run time
    batch_size: int = 0
    """num_envs * num_steps"""
    minibatch_size: int = 0
    """batch_size // num_minibatches"""
    num_iterations: int = 0
    """total_timesteps // batch_size"""


def parse_args(argv: list[str] | None = None) -> Args:
    """The ``Args`` from the command line: tyro when installed (as CleanRL), else argparse
    built from the same fields (``--num-envs 16``, ``--anneal-lr false``)."""
    try:
        import tyro  # optional: a nicer --help
    except ImportError:
        tyro = None
    if tyro is not None:
        return tyro.cli(Args, args=argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in dataclasses.fields(Args):
        parser.add_argument("--" + f.name.replace("_", "-"), default=f.default, type=_parser_of(f.type))
    return Args(**vars(parser.parse_args(argv)))


def _parser_of(kind: str):
    """argparse's converter of a field's annotation (``from __future__`` makes it a string)."""
    def boolean(text: str) -> bool:
        if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise argparse.ArgumentTypeError(f"{text!r}: allowed true or false")
        return text.lower() in ("true", "1", "yes")

    def optional_float(text: str) -> float | None:
        return None if text.lower() == "none" else float(text)

    return {"bool": boolean, "int": int, "float": float, "str": str,
            "float | None": optional_float}[kind]


def make_env(args: Args) -> gym.vector.VectorEnv:
    """N duels stepped natively, with the flat observation (one vector per duel)."""
    return gym.make_vec(args.env_id, num_envs=args.num_envs, vectorization_mode="vector_entry_point",
                        flat_observation=True, opponent=args.opponent)


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Linear:
    """Orthogonal weights and a constant bias (CleanRL's initialization)."""
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    """A critic and an actor (two hidden layers each); the actor's illegal logits are masked."""

    def __init__(self, obs_size: int, n_actions: int, hidden: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_size, hidden)), nn.Tanh(),
            layer_init(nn.Linear(hidden, hidden)), nn.Tanh(),
            layer_init(nn.Linear(hidden, 1), std=1.0))
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_size, hidden)), nn.Tanh(),
            layer_init(nn.Linear(hidden, hidden)), nn.Tanh(),
            layer_init(nn.Linear(hidden, n_actions), std=0.01))

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def get_action_and_value(self, x: torch.Tensor, mask: torch.Tensor,
                             action: torch.Tensor | None = None):
        """Sample (or score) an action of the masked policy: an illegal action's logit is a
        large negative number, so its probability is 0 and it is never sampled."""
        logits = self.actor(x)
        logits = torch.where(mask, logits, torch.tensor(-1e8, dtype=logits.dtype, device=logits.device))
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


@dataclass
class Rollout:
    """What one rollout stores, step by step, for every env."""

    obs: torch.Tensor
    masks: torch.Tensor
    actions: torch.Tensor
    logprobs: torch.Tensor
    rewards: torch.Tensor
    dones: torch.Tensor
    values: torch.Tensor

    @classmethod
    def empty(cls, args: Args, obs_size: int, n_actions: int, device: torch.device) -> Rollout:
        def zeros(*shape: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
            return torch.zeros((args.num_steps, args.num_envs, *shape), dtype=dtype, device=device)

        return cls(obs=zeros(obs_size), masks=zeros(n_actions, dtype=torch.bool),
                   actions=zeros(dtype=torch.long), logprobs=zeros(), rewards=zeros(),
                   dones=zeros(), values=zeros())


@dataclass
class Episodes:
    """Running return and length of each env's current episode, logged when it ends."""

    ret: np.ndarray
    length: np.ndarray
    finished: int = 0

    def add(self, rewards: np.ndarray, done: np.ndarray, writer: SummaryWriter, step: int) -> None:
        self.ret += rewards
        self.length += 1
        for k in np.flatnonzero(done):
            writer.add_scalar("charts/episodic_return", self.ret[k], step)
            writer.add_scalar("charts/episodic_length", self.length[k], step)
            self.ret[k], self.length[k] = 0.0, 0
            self.finished += 1


def collect(envs, agent: Agent, roll: Rollout, state: dict, episodes: Episodes,
            writer: SummaryWriter, args: Args, device: torch.device) -> None:
    """``num_steps`` steps of every env with the current policy, into ``roll``. ``state``
    carries the next observation, mask, done flags and global step between rollouts."""
    for step in range(args.num_steps):
        state["global_step"] += args.num_envs
        roll.obs[step], roll.masks[step], roll.dones[step] = state["obs"], state["mask"], state["done"]
        with torch.no_grad():
            action, logprob, _, value = agent.get_action_and_value(state["obs"], state["mask"])
        roll.values[step], roll.actions[step], roll.logprobs[step] = value.flatten(), action, logprob
        obs, reward, term, trunc, info = envs.step(action.cpu().numpy())
        done = np.logical_or(term, trunc)
        roll.rewards[step] = torch.as_tensor(reward, dtype=torch.float32, device=device)
        state["obs"] = torch.as_tensor(obs, dtype=torch.float32, device=device)
        state["mask"] = torch.as_tensor(info["action_mask"], dtype=torch.bool, device=device)
        state["done"] = torch.as_tensor(done, dtype=torch.float32, device=device)
        episodes.add(reward, done, writer, state["global_step"])


def advantages(agent: Agent, roll: Rollout, state: dict, args: Args) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalized advantage estimates and returns (the episodes restart inside the step, so
    a done flag cuts the bootstrap)."""
    with torch.no_grad():
        next_value = agent.get_value(state["obs"]).reshape(1, -1)
        adv = torch.zeros_like(roll.rewards)
        last = 0
        for t in reversed(range(args.num_steps)):
            if t == args.num_steps - 1:
                nonterminal, next_values = 1.0 - state["done"], next_value
            else:
                nonterminal, next_values = 1.0 - roll.dones[t + 1], roll.values[t + 1]
            delta = roll.rewards[t] + args.gamma * next_values * nonterminal - roll.values[t]
            adv[t] = last = delta + args.gamma * args.gae_lambda * nonterminal * last
    return adv, adv + roll.values


def update(agent: Agent, optimizer: optim.Optimizer, roll: Rollout, adv: torch.Tensor,
           returns: torch.Tensor, args: Args) -> dict[str, float]:
    """PPO's clipped update over the flattened rollout, with the masks it was sampled under."""
    b_obs, b_masks = roll.obs.reshape(args.batch_size, -1), roll.masks.reshape(args.batch_size, -1)
    b_actions, b_logprobs = roll.actions.reshape(-1), roll.logprobs.reshape(-1)
    b_adv, b_returns, b_values = adv.reshape(-1), returns.reshape(-1), roll.values.reshape(-1)
    order = np.arange(args.batch_size)
    clipfracs, stats = [], {}
    for _ in range(args.update_epochs):
        np.random.shuffle(order)
        for start in range(0, args.batch_size, args.minibatch_size):
            mb = order[start:start + args.minibatch_size]
            _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                b_obs[mb], b_masks[mb], b_actions[mb])
            logratio = newlogprob - b_logprobs[mb]
            ratio = logratio.exp()
            with torch.no_grad():
                stats["old_approx_kl"] = (-logratio).mean().item()
                stats["approx_kl"] = ((ratio - 1) - logratio).mean().item()
                clipfracs.append(((ratio - 1.0).abs() > args.clip_coef).float().mean().item())
            mb_adv = b_adv[mb]
            if args.norm_adv:
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
            pg_loss = torch.max(-mb_adv * ratio,
                                -mb_adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
            v_loss = value_loss(newvalue.view(-1), b_values[mb], b_returns[mb], args)
            loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
            optimizer.step()
            stats.update(policy_loss=pg_loss.item(), value_loss=v_loss.item(), entropy=entropy.mean().item())
        if args.target_kl is not None and stats["approx_kl"] > args.target_kl:
            break
    y_pred, y_true = b_values.cpu().numpy(), b_returns.cpu().numpy()
    var_y = np.var(y_true)
    stats["explained_variance"] = float("nan") if var_y == 0 else float(1 - np.var(y_true - y_pred) / var_y)
    stats["clipfrac"] = float(np.mean(clipfracs))
    return stats


def value_loss(newvalue: torch.Tensor, old: torch.Tensor, returns: torch.Tensor, args: Args) -> torch.Tensor:
    """The critic's loss, clipped around the rollout's values when ``clip_vloss``."""
    unclipped = (newvalue - returns) ** 2
    if not args.clip_vloss:
        return 0.5 * unclipped.mean()
    clipped = old + torch.clamp(newvalue - old, -args.clip_coef, args.clip_coef)
    return 0.5 * torch.max(unclipped, (clipped - returns) ** 2).mean()


def main(argv: list[str] | None = None) -> str:
    """Train; returns the TensorBoard run folder."""
    args = parse_args(argv)
    args.batch_size = args.num_envs * args.num_steps
    args.minibatch_size = args.batch_size // args.num_minibatches
    args.num_iterations = args.total_timesteps // args.batch_size
    run_name = f"{args.exp_name}__{args.seed}__{int(time.time())}"
    writer = SummaryWriter(f"{args.log_dir}/{run_name}")
    writer.add_text("hyperparameters", "|param|value|\n|-|-|\n" +
                    "\n".join(f"|{k}|{v}|" for k, v in vars(args).items()))

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(args.torch_deterministic)
    torch.set_num_threads(args.torch_threads)
    device = torch.device("cuda" if torch.cuda.is_available() and args.cuda else "cpu")

    envs = make_env(args)
    obs_size = int(np.prod(envs.single_observation_space.shape))
    n_actions = int(envs.single_action_space.n)
    agent = Agent(obs_size, n_actions, args.hidden).to(device)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    roll = Rollout.empty(args, obs_size, n_actions, device)
    episodes = Episodes(np.zeros(args.num_envs), np.zeros(args.num_envs, np.int64))

    obs, info = envs.reset(seed=args.seed)
    state = {"global_step": 0, "obs": torch.as_tensor(obs, dtype=torch.float32, device=device),
             "mask": torch.as_tensor(info["action_mask"], dtype=torch.bool, device=device),
             "done": torch.zeros(args.num_envs, device=device)}
    start = time.time()
    for iteration in range(1, args.num_iterations + 1):
        if args.anneal_lr:
            frac = 1.0 - (iteration - 1.0) / args.num_iterations
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate
        collect(envs, agent, roll, state, episodes, writer, args, device)
        adv, returns = advantages(agent, roll, state, args)
        stats = update(agent, optimizer, roll, adv, returns, args)
        step = state["global_step"]
        writer.add_scalar("charts/learning_rate", optimizer.param_groups[0]["lr"], step)
        for k, v in stats.items():
            writer.add_scalar(f"losses/{k}", v, step)
        writer.add_scalar("charts/illegal_actions", envs.unwrapped.illegal_total, step)
        writer.add_scalar("charts/SPS", int(step / (time.time() - start)), step)
        print(f"step {step}: {episodes.finished} episodes, SPS {int(step / (time.time() - start))}")
    envs.close()
    writer.close()
    return f"{args.log_dir}/{run_name}"


if __name__ == "__main__":
    main()
