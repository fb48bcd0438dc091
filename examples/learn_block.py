"""Teach a small numpy policy two-player Block through the PettingZoo environment, then
measure it against bazar's ``random`` bot in the arena.

The policy is one hidden layer (tanh) and a softmax over the flat action space, masked by
the observation's ``action_mask``; a linear value of the observation is its baseline. It is
trained by REINFORCE on whole matches (the environment's ``reward="match"``): the learner
takes one seat (the other seat each match), the other seat plays a uniformly random legal
action, and each decision of the learner is pushed towards the value of its round for its
side (points over the other side). Then the greedy policy (its most probable legal action)
is wrapped as a bazar bot that chooses from a :class:`~bazar.View`, and
:func:`bazar.arena.run` plays it against ``random`` on duplicate deals, matches to 100
points.

    python examples/learn_block.py --minutes 3 --seed 1 --out block.npz

writes the weights (``block.npz``) and the report (``block.json``: the arena's report and
the training's figures) and prints the win rate with its 95 % interval; ``--against
random,greedy`` measures it against each bot named. Progress goes to stderr. Needs
``pip install 'bazar[rl]'``; numpy is the only numerical library.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import bazar
from bazar import arena, bots
from bazar.core.moves import Move
from bazar.core.view import View
from bazar.rl import pettingzoo as bz
from bazar.rl.encoding import Encoding

#: the variant learned, at two players
VARIANT = "block"

Array = np.ndarray[Any, np.dtype[np.float64]]


class Policy:
    """A masked softmax over ``actions`` from one tanh layer of ``hidden`` units, and a
    linear value of the observation (the baseline REINFORCE subtracts)."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> None:
        self.params: dict[str, Array] = {
            "w1": rng.normal(0.0, 1.0 / np.sqrt(inputs), (inputs, hidden)),
            "b1": np.zeros(hidden),
            # a zero output layer starts the policy uniform over the legal actions
            "w2": np.zeros((hidden, actions)),
            "b2": np.zeros(actions),
            "v": np.zeros(inputs),
            "v0": np.zeros(1),
        }

    def probabilities(self, obs: Array, mask: Array) -> tuple[Array, Array]:
        """The hidden layer and the action probabilities (0 where ``mask`` is 0) of a batch
        of observations (one row each)."""
        p = self.params
        hidden = np.tanh(obs @ p["w1"] + p["b1"])
        logits = hidden @ p["w2"] + p["b2"]
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        weights = np.exp(logits)
        return hidden, weights / weights.sum(axis=-1, keepdims=True)

    def best(self, obs: Array, mask: Array) -> int:
        """The most probable legal action."""
        return int(np.argmax(self.probabilities(obs[None], mask[None])[1][0]))

    def value(self, obs: Array) -> Array:
        """The baseline: what the learner expects the round to be worth from ``obs``."""
        value: Array = obs @ self.params["v"] + self.params["v0"][0]
        return value

    def gradients(
        self, obs: Array, mask: Array, actions: Array, returns: Array
    ) -> dict[str, Array]:
        """The ascent direction of the policy (REINFORCE with the value as baseline) and of
        the value (towards ``returns``), averaged over the batch."""
        p = self.params
        n = len(actions)
        hidden, probs = self.probabilities(obs, mask)
        advantage = returns - self.value(obs)
        # d log p(a) / d logits = onehot(a) - p, on the legal actions only
        g = -probs
        g[np.arange(n), actions] += 1.0
        g *= advantage[:, None] / n
        back = (g @ p["w2"].T) * (1.0 - hidden**2)
        return {
            "w2": hidden.T @ g,
            "b2": g.sum(axis=0),
            "w1": obs.T @ back,
            "b1": back.sum(axis=0),
            "v": obs.T @ advantage / n,
            "v0": np.array([advantage.mean()]),
        }

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = self.params  # savez's stubs type its keywords narrowly
        np.savez(path, **arrays)

    @classmethod
    def load(cls, path: Path) -> Policy:
        policy = cls.__new__(cls)
        with np.load(path) as data:
            policy.params = {name: data[name] for name in data.files}
        return policy


class Adam:
    """Adam steps that climb (the gradients given are ascent directions)."""

    def __init__(self, params: dict[str, Array], lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.s = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.s[k] = 0.999 * self.s[k] + 0.001 * g * g
            m = self.m[k] / (1 - 0.9**self.t)
            s = self.s[k] / (1 - 0.999**self.t)
            params[k] += self.lr * m / (np.sqrt(s) + 1e-8)


def episode(
    env: Any, policy: Policy, learner: str, rng: np.random.Generator, seed: int
) -> tuple[list[tuple[Array, Array, int, float]], list[float]]:
    """One match of the AEC env (``reward="match"``), the other seat playing a uniformly
    random legal action: the ``learner``'s decisions (observation, mask, action, and the
    value of the round it was made in), and the values of its rounds.

    A decision is credited with its own round's value, not the match's rest: the reward
    the learner is handed at its first step after a round (or at the match's end) is that
    round's value (the match's last round adds its +1 or -1)."""
    env.reset(seed=seed)
    match = env.unwrapped.match
    decisions: list[tuple[Array, Array, int, float]] = []
    pending: list[tuple[Array, Array, int]] = []
    values: list[float] = []
    played = 0  # the rounds of the match finished when the learner last moved
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        over = termination or truncation
        if agent == learner and (over or len(match.rounds) - 1 > played):
            played = len(match.rounds) - 1
            values.append(float(reward))
            decisions += [(x, mask, action, float(reward)) for x, mask, action in pending]
            pending = []
        action: int | None = None
        if not over:
            mask = obs["action_mask"]
            if agent == learner:
                x = obs["observation"].astype(np.float64)
                probs = policy.probabilities(x[None], mask[None])[1][0]
                action = min(int(np.searchsorted(np.cumsum(probs), rng.random())), len(probs) - 1)
                pending.append((x, mask, action))
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
    return decisions, values


def train(
    policy: Policy,
    minutes: float | None,
    episodes: int | None,
    batch: int,
    lr: float,
    seed: int,
) -> dict[str, Any]:
    """REINFORCE against the random seat until ``minutes`` pass or ``episodes`` matches
    are played, whichever comes first; the figures of the run. The learner takes one seat,
    the other each match. Whole matches teach what single rounds do not: the lead of a
    later round, which the winner of the last one chooses freely, and play with the scores
    on the board."""
    env = bz.env(VARIANT, players=2, reward="match")
    rng = np.random.default_rng(seed)
    adam = Adam(policy.params, lr)
    agents = list(env.possible_agents)
    start = last_note = time.monotonic()
    played, rounds, scale = 0, [], 1.0
    while (minutes is None or time.monotonic() - start < minutes * 60) and (
        episodes is None or played < episodes
    ):
        obs, masks, actions, returns = [], [], [], []
        for _ in range(batch if episodes is None else min(batch, episodes - played)):
            learner = agents[played % 2]
            decisions, values = episode(env, policy, learner, rng, seed * 1_000_003 + played)
            played += 1
            rounds += values
            for x, mask, action, value in decisions:
                obs.append(x)
                masks.append(mask)
                actions.append(action)
                returns.append(value)
        if actions:
            # round values run to tens of points: a running scale keeps the steps even
            target = np.array(returns)
            scale = 0.99 * scale + 0.01 * float(np.sqrt(np.mean(target**2)) or 1.0)
            grads = policy.gradients(
                np.array(obs), np.array(masks), np.array(actions), target / scale
            )
            adam.step(policy.params, grads)
        if time.monotonic() - last_note >= 10:
            last_note = time.monotonic()
            recent = rounds[-2000:]
            print(
                f"{last_note - start:6.0f}s  {played} matches, {len(rounds)} rounds  "
                f"mean value of the last {len(recent)}: {np.mean(recent):+.2f}  "
                f"won {np.mean(np.array(recent) > 0):.1%}",
                file=sys.stderr,
            )
    env.close()
    recent = rounds[-2000:]
    return {
        "matches": played,
        "rounds": len(rounds),
        "seconds": round(time.monotonic() - start, 1),
        "last_rounds": len(recent),
        "last_mean_value": float(np.mean(recent)) if recent else 0.0,
        "last_won": float(np.mean(np.array(recent) > 0)) if recent else 0.0,
    }


def as_bot(policy: Policy) -> type[bots.Bot]:
    """The policy as a bazar bot called ``learned``: it sees what every bot sees, one
    :class:`~bazar.View`, encoded by the same :class:`Encoding` the environment uses."""

    class LearnedBot(bots.Bot):
        """The trained policy's most probable legal move."""

        name = "learned"
        quick = True

        def choose(self, view: View, legal: Sequence[Move]) -> Move:
            enc = Encoding.of(view.rules)
            obs = enc.observe(view).astype(np.float64)
            return enc.move(policy.best(obs, enc.mask(view).astype(np.float64)), view)

    return LearnedBot


def measure(opponent: str, games: int, seed: int) -> arena.Report:
    """``games`` arena matches (duplicate deals, seats swapped) of the ``learned`` bot
    against the bazar bot ``opponent``."""
    return arena.run(bazar.rules(VARIANT, players=2), ["learned", opponent], games, seed=seed)


def said(report: arena.Report) -> str:
    """The learned bot's result in one line."""
    learned, opponent = report.results
    low, high = learned.ci95
    return (
        f"learned vs {opponent.bot} on {VARIANT}: won {learned.wins:g} of {learned.games} "
        f"matches, {learned.win_rate:.1%} (95% interval {low:.1%}-{high:.1%}), "
        f"margin {learned.margin:+.1f} points"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, help="training time (3 without --episodes)")
    parser.add_argument("--episodes", type=int, help="stop training after this many matches")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("weights.npz"), help="the weights")
    parser.add_argument("--report", type=Path, help="the report (default: --out as .json)")
    parser.add_argument("--games", type=int, default=2000, help="arena matches to measure")
    parser.add_argument(
        "--against",
        type=lambda text: [name.strip() for name in text.split(",")],
        default=["random"],
        help="the bots to measure it against (comma-separated bazar bot names)",
    )
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--batch", type=int, default=8, help="matches per update")
    parser.add_argument("--lr", type=float, default=0.003)
    args = parser.parse_args(argv)
    report_path = args.report or args.out.with_suffix(".json")
    minutes = 3.0 if args.minutes is None and args.episodes is None else args.minutes
    limits = [f"{minutes:g} minutes"] if minutes is not None else []
    budget = " or ".join(limits + ([f"{args.episodes} matches"] if args.episodes else []))

    enc = Encoding.of(bazar.rules(VARIANT, players=2))
    rng = np.random.default_rng(args.seed)
    policy = Policy(enc.observation_shape[0], enc.num_actions, args.hidden, rng)
    print(
        f"training on {VARIANT} for {budget}: {enc.observation_shape[0]} inputs, "
        f"{enc.num_actions} actions, {args.hidden} hidden",
        file=sys.stderr,
    )
    figures = train(policy, minutes, args.episodes, args.batch, args.lr, args.seed)
    policy.save(args.out)
    print(
        f"trained on {figures['matches']} matches ({figures['rounds']} rounds); "
        f"measuring {args.games} matches against {', '.join(args.against)}",
        file=sys.stderr,
    )
    bots.register(as_bot(Policy.load(args.out)))
    reports = [measure(name, args.games, args.seed) for name in args.against]
    summary = [said(report) for report in reports]
    report_path.write_text(
        json.dumps(
            {
                "command": ["python", "examples/learn_block.py", *(argv or sys.argv[1:])],
                "training": figures,
                "arena": [report.to_json() for report in reports],
                "summary": summary,
            },
            indent=2,
        )
        + "\n"
    )
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
