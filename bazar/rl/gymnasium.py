"""One seat of a bazar game as a single-agent Gymnasium environment; bazar bots play the rest.

>>> from bazar.rl.gymnasium import DominoEnv
>>> env = DominoEnv("block", seat=0, opponents="greedy")
>>> observation, info = env.reset(seed=3)
>>> done = False
>>> while not done:
...     legal = observation["action_mask"].nonzero()[0]
...     observation, reward, terminated, truncated, info = env.step(int(legal[0]))
...     done = terminated or truncated
>>> env.unwrapped.round.is_over()
True

The observation is the learner's dict of the AEC environment
(:mod:`bazar.rl.pettingzoo`): ``observation`` and ``action_mask``; the action an id of the
encoding's flat action space; the reward the learner's, as there (``reward="round"`` or
``"match"``). :meth:`DominoEnv.step` makes the learner's move, then the bots' moves until
the learner is to move again or the episode is over.

Gymnasium's contract lets an agent step any action of the action space, legal or not.
An illegal id raises :class:`~bazar.rl.encoding.IllegalAction` by default, so that a bug
in a masked learner shows at once; with ``illegal_reward=x`` it ends the episode instead,
the learner rewarded ``x`` (pick it below the worst value a round can give, or the learner
learns to escape bad deals by it).

Importing this module registers the environment as ``bazar/Domino-v0``:
``gymnasium.make("bazar/Domino-v0", variant="kozel-team", seat=1)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from bazar.bots import make as make_bot
from bazar.bots.base import Bot
from bazar.core.round import Round

from .encoding import IllegalAction
from .pettingzoo import DominoAECEnv, Observation, raw_env
from .render import RENDER_MODES, render

__all__ = ["ENV_ID", "DominoEnv"]

#: the id the environment is registered under
ENV_ID = "bazar/Domino-v0"


class DominoEnv(gymnasium.Env[Observation, np.int64]):
    """Seat ``seat`` of ``variant`` learns; the other seats are bazar bots named by
    ``opponents`` (:func:`bazar.bots.make` names: one for every other seat, or a list of
    one per other seat, in seat order). ``reset(seed=...)`` seeds the deal and the bots."""

    # gymnasium.Env declares it an instance attribute with a class default
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        variant: str = "block",
        players: int | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        reward: str = "round",
        max_moves: int | None = None,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
        **options: Any,
    ) -> None:
        self.game: DominoAECEnv = raw_env(
            variant, players, render_mode, reward, max_moves, **options
        )
        players = self.game.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat from 0 to {players - 1}, not {seat!r}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(
                f"opponents must name one bot, or one for each of the {players - 1} other "
                f"seats, not {len(names)}"
            )
        for name in names:
            make_bot(name)  # an unknown name fails here, not at the first reset
        self.seat = seat
        self.agent = self.game.possible_agents[seat]
        self.opponents = names
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = self.game.observation_space(self.agent)
        self.action_space = self.game.action_space(self.agent)
        #: the bots of the episode, by agent (made anew, seeded, at each reset)
        self.bots: dict[str, Bot] = {}
        self._done = True

    @property
    def round(self) -> Round:
        """The bazar round being played (the full state)."""
        return self.game.round

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new episode and let the bots move until the learner is to move. A round
        the bots finish before the learner's first move is dealt again (the learner could
        not act in it); in ``reward="match"`` the rewards of such rounds come with the
        learner's first step."""
        super().reset(seed=seed)
        game = self.game
        while True:
            deal = int(self.np_random.integers(2**63 - 1))
            game.reset(seed=deal)
            others = [agent for agent in game.possible_agents if agent != self.agent]
            self.bots = {
                agent: make_bot(name, seed=deal + 1 + i)
                for i, (agent, name) in enumerate(zip(others, self.opponents, strict=True))
            }
            self._play_bots()
            if not game._over:
                self._done = False
                return game.observe(self.agent), {}

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The learner's move, then the bots' until the learner is to move again or the
        episode is over; the learner's reward over them."""
        game = self.game
        if self._done:
            raise RuntimeError("the episode is over: call reset() before step()")
        agent = self.agent
        rewards = game._cumulative_rewards
        # the rewards since the learner last moved (a match's rounds the bots finished
        # before its first move): the environment clears them as the learner moves
        reward = float(rewards[agent])
        if self.illegal_reward is not None:
            try:
                game.encoding.move(int(action), game.round)
            except (IllegalAction, TypeError, ValueError):
                self._done = True
                reward += self.illegal_reward
                return game.observe(agent), reward, True, False, {}
        game.step(int(action))
        self._play_bots()
        reward += float(rewards[agent])
        rewards[agent] = 0.0
        self._done = game._over
        return (
            game.observe(agent),
            reward,
            game.terminations[agent],
            game.truncations[agent],
            {},
        )

    def _play_bots(self) -> None:
        """The bots' moves until the learner is to move or the episode is over."""
        game = self.game
        encoding = game.encoding
        while not game._over and game.agent_selection != self.agent:
            agent = game.agent_selection
            view = game.view(agent)
            move = self.bots[agent].choose(view, view.legal)
            game.step(encoding.action(move, game.round))

    def render(self) -> str | None:
        """The table as text, from the learner's seat (:func:`bazar.rl.render.ansi`)."""
        return render(self.game.view(self.agent), self.render_mode)

    def close(self) -> None:
        self.game.close()


gymnasium.register(ENV_ID, entry_point=DominoEnv, disable_env_checker=False)
