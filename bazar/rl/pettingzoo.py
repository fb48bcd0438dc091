"""Every bazar game as a PettingZoo AEC environment: one agent per seat, turn by turn.

>>> from bazar.rl import pettingzoo as bz
>>> env = bz.env("block")
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     observation, reward, terminated, truncated, info = env.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = env.action_space(agent).sample(observation["action_mask"])
...     env.step(action)
>>> env.unwrapped.round.is_over()
True

The agents are ``seat_0`` .. ``seat_{n-1}``. An observation is a dict: ``observation``, the
seat's flat float32 tensor from :class:`~bazar.rl.encoding.Encoding` (built from what the
seat may know, never more), and ``action_mask``, an int8 vector with 1 on every legal action
of the seat to move (all zeros for the seats that wait). An action is an id of the
encoding's flat action space; an id that is not legal raises
:class:`~bazar.rl.encoding.IllegalAction` (a ValueError naming the legal ids).

Rewards (``reward=``):

``"round"`` (the default)
    One round per episode. When it ends, each seat's reward is the round's value for its
    side (:func:`bazar.bots.sampler.round_value`: the game's own points relative to the
    other sides, more being better; partners share it). Every other step rewards 0.
``"match"``
    A whole :class:`~bazar.Match` per episode, rounds one after the other with the ledger
    carried. When a round ends each seat is rewarded its value, as above, from the match's
    ledger before that round; when the match ends, the seats that won it get +1 more, the
    seats that lost it -1, the others 0.

``max_moves`` caps the moves of an episode: once that many are made and the episode is not
over, every agent is truncated, with no reward for the unfinished round.
"""

from __future__ import annotations

import operator
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from bazar.bots.sampler import round_value
from bazar.core.match import Match
from bazar.core.round import Round
from bazar.core.rules import Rules
from bazar.core.rules import rules as make_rules
from bazar.core.view import View

from .encoding import Encoding, IllegalAction
from .render import RENDER_MODES, render

__all__ = ["REWARDS", "DominoAECEnv", "env", "raw_env"]

#: the reward schemes ``reward=`` takes
REWARDS = ("round", "match")

Observation = dict[str, np.ndarray]


def env(
    variant: str = "block",
    players: int | None = None,
    render_mode: str | None = None,
    reward: str = "round",
    max_moves: int | None = None,
    **options: Any,
) -> AECEnv[str, Observation, int]:
    """The AEC environment of ``variant`` in PettingZoo's usual order-enforcing wrapper
    (:func:`raw_env` for the bare one). ``options`` are the variant's rules options
    (``bazar.rules(variant, players=players, **options)``)."""
    return _OrderEnforcing(raw_env(variant, players, render_mode, reward, max_moves, **options))


def raw_env(
    variant: str = "block",
    players: int | None = None,
    render_mode: str | None = None,
    reward: str = "round",
    max_moves: int | None = None,
    **options: Any,
) -> DominoAECEnv:
    """The unwrapped AEC environment of ``variant`` (see :func:`env`)."""
    return DominoAECEnv(
        make_rules(variant, players=players, **options),
        render_mode=render_mode,
        reward=reward,
        max_moves=max_moves,
    )


def _bounds(enc: Encoding) -> tuple[np.ndarray, np.ndarray]:
    """The least and greatest value of each number of the encoding's observations: 0 to 1,
    but the scores, which run from -1 (clipped, ahead of the seat's side) to 1."""
    low = np.zeros(enc.observation_shape, np.float32)
    for section in enc.sections():
        if section.name == "scores":
            low[section.start : section.start + section.size] = -1.0
    return low, np.ones(enc.observation_shape, np.float32)


# PettingZoo is untyped: its wrappers are Any to mypy
class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with ``last`` and ``step`` handed straight to the
    environment once it is reset: the wrapper reads every attribute of the environment
    through ``__getattr__``, which cost more than a step itself."""

    # the iterator of agent_iter reads these two at every step: read straight, not through
    # the wrapper's __getattr__ (which refuses them before reset, as these do)
    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]  # PettingZoo: untyped

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection  # type: ignore[no-any-return]  # PettingZoo: untyped

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, Any]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)  # type: ignore[no-any-return]  # PettingZoo: untyped

    def step(self, action: int | None) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)


# PettingZoo is untyped: its AECEnv is Any to mypy
class DominoAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """One bazar game as an AEC environment (build it with :func:`env` or :func:`raw_env`).

    :attr:`round` is the bazar :class:`~bazar.Round` being played (the full state, every
    hand in it: for analysis, never for the agents; a deal of seed 0 before the first
    reset), :attr:`match` the match in ``reward="match"``. ``reset(seed=...)`` deals from
    the seed; ``reset()`` deals from the environment's own generator, itself seeded by the
    last seed given.
    """

    def __init__(
        self,
        rules: Rules,
        render_mode: str | None = None,
        reward: str = "round",
        max_moves: int | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            modes = ", ".join(RENDER_MODES)
            raise ValueError(f"render_mode must be None or one of {modes}, not {render_mode!r}")
        if max_moves is not None and max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, not {max_moves!r}")
        self.rules = rules
        self.encoding = enc = Encoding.of(rules)
        self.render_mode = render_mode
        self.reward = reward
        self.max_moves = max_moves
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"bazar_{rules.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self.possible_agents = [f"seat_{seat}" for seat in range(rules.players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Box(*_bounds(enc), enc.observation_shape, np.float32)
        mask = spaces.Box(0, 1, (enc.num_actions,), np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(enc.num_actions) for agent in self.possible_agents
        }
        self._rng = random.Random()
        self.match: Match | None = None
        self.round: Round = Round(rules, seed=0)
        self._seen = enc.observer(self.round)
        self._moves = 0
        self._over = False
        self._rewarded = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode: a round, or a match's first round, from ``seed``."""
        if seed is not None:
            self._rng.seed(seed)
        deal = self._rng.randrange(2**63)
        if self.reward == "match":
            self.match = Match(self.rules, seed=deal)
            self.round = self.match.round
        else:
            self.round = Round(self.rules, seed=deal)
        self._seen = self.encoding.observer(self.round)
        agents = self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        self._moves = 0
        self._over = False
        self._rewarded = False
        self.agent_selection = agents[self._turn()]

    def _turn(self) -> int:
        turn = self.round.turn
        assert turn is not None, "a dealt round that is not over has a seat to move"
        return turn

    def observe(self, agent: str) -> Observation:
        """What ``agent``'s seat may know now, and its action mask."""
        seat = self._seat_of[agent]
        seen = self._seen
        if seat == self.round.turn and not self._over:
            mask = seen.mask()
        else:
            mask = np.zeros(self.encoding.num_actions, np.int8)
        return {"observation": seen.observe(seat), "action_mask": mask}

    def view(self, agent: str) -> View:
        """The bazar :class:`~bazar.View` of ``agent``'s seat (with the match's scores in
        ``reward="match"``): what a bazar bot is given."""
        seat = self._seat_of[agent]
        return self.round.view(seat) if self.match is None else self.match.view(seat)

    def step(self, action: int | None) -> None:
        """Make the move of id ``action`` for the agent to move (None for an agent that is
        done, as PettingZoo's protocol wants)."""
        agent = self.agent_selection
        if self._over:
            self._was_dead_step(action)
            return
        rnd = self.round
        seen = self._seen
        move = seen.move(self._action(action))
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        self._moves += 1
        match = self.match
        if match is None:
            seen.push(move)
            if rnd.is_over():
                self._reward_rounds([rnd])
                self._end(self.terminations)
                return
        else:
            played = len(match.rounds) - 1
            seat = rnd.turn
            match.push(move)
            if match.round is rnd:
                assert seat is not None  # the move was legal: the round was not over
                seen.played(seat, move)
            else:  # the next round is dealt
                self.round = match.round
                self._seen = self.encoding.observer(self.round)
            finished = match.rounds[played:] if match.is_over() else match.rounds[played:-1]
            if finished:
                self._reward_rounds(finished)
            if match.is_over():
                self._reward_result(match)
                self._end(self.terminations)
                return
        if self.max_moves is not None and self._moves >= self.max_moves:
            self._end(self.truncations)
            return
        self.agent_selection = self.possible_agents[self._turn()]
        if self._rewarded:
            self._accumulate_rewards()

    def _action(self, action: Any) -> int:
        """The action as a plain int (numpy integers accepted); anything else is refused
        with the legal ids."""
        try:
            return operator.index(action)
        except TypeError:
            legal = self.encoding.legal_actions(self.round)
            raise IllegalAction(
                f"{self.agent_selection} is to move: its action must be one of the legal ids "
                f"{legal}, not {action!r}"
            ) from None

    def _reward_rounds(self, rounds: list[Round]) -> None:
        """Each seat's reward for the rounds just finished: its side's value of each."""
        rewards = self.rewards
        side_of = self.rules.side_of
        for rnd in rounds:
            values = round_value(rnd, rnd.ledger)
            for seat, agent in enumerate(self.possible_agents):
                rewards[agent] += values[side_of(seat)]
        self._rewarded = True

    def _reward_result(self, match: Match) -> None:
        """+1 to the match's winners, -1 to its losers."""
        result = match.result()
        assert result is not None
        agents = self.possible_agents
        for seat in result.winners:
            self.rewards[agents[seat]] += 1.0
        for seat in result.losers:
            self.rewards[agents[seat]] -= 1.0
        self._rewarded = True

    def _end(self, flags: dict[str, bool]) -> None:
        """The episode is over for everyone (``flags``: the terminations or truncations);
        the agent after the mover takes the first of the done agents' steps."""
        for agent in flags:
            flags[agent] = True
        self._over = True
        agents = self.possible_agents
        self.agent_selection = agents[(self._seat_of[self.agent_selection] + 1) % len(agents)]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed), as the selected agent's
        seat sees it (the seat to move, while the episode runs), or as a spectator does once
        every agent is done."""
        if self.agents:
            view = self.view(self.agent_selection)
        elif self.match is not None:
            view = self.match.view(None)
        else:
            view = self.round.view(None)
        return render(view, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the environment holds no window or process."""
