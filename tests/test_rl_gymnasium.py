"""The single-agent Gymnasium environment (``bazar/rl/gymnasium.py``): Gymnasium's checker on
every variant, the bots on the other seats, the learner's rewards, seeds and the errors."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bazar
from bazar import bots
from bazar.bots.sampler import round_value
from bazar.rl.encoding import IllegalAction
from bazar.rl.gymnasium import ENV_ID, DominoEnv

#: below any round's value: what an illegal action costs where the checker samples any id
PENALTY = -1000.0


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # the checker warns that an observation dict's mask may be all zeros, by design here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def play(env: DominoEnv, seed: int) -> tuple[list[int], float]:
    """An episode with random legal actions: the learner's actions and its total reward."""
    observation, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    actions: list[int] = []
    total = 0.0
    while True:
        mask = observation["action_mask"]
        assert mask.any(), "the learner is asked only when it has a move"
        action = rng.choice(np.flatnonzero(mask).tolist())
        actions.append(action)
        observation, reward, terminated, truncated, _ = env.step(action)
        total += reward
        if terminated or truncated:
            return actions, total


@pytest.mark.parametrize("variant", bazar.VARIANTS)
def test_every_variant_passes_gymnasiums_checker(variant: str) -> None:
    check_env(DominoEnv(variant, opponents="random", illegal_reward=PENALTY))
    made = gymnasium.make(ENV_ID, variant=variant, opponents="greedy", illegal_reward=PENALTY)
    # through its spec the checker also renders each mode
    check_env(made.unwrapped)


def test_gymnasium_make_passes_the_options_on() -> None:
    env = gymnasium.make(ENV_ID, variant="kozel-team", seat=2, opponents="greedy")
    assert isinstance(env.unwrapped, DominoEnv)
    assert env.unwrapped.seat == 2 and env.unwrapped.game.rules.name == "kozel-team"
    observation, _ = env.reset(seed=1)
    assert observation["observation"].shape == env.observation_space["observation"].shape


@pytest.mark.parametrize(("variant", "seat"), [("block", 1), ("kozel-team", 2), ("texas-42", 3)])
def test_the_learner_is_asked_only_on_its_turn_and_the_bots_play_the_rest(
    variant: str, seat: int
) -> None:
    env = DominoEnv(variant, seat=seat, opponents="greedy")
    actions, total = play(env, 5)
    rnd = env.round
    assert rnd.is_over()
    history = rnd.history()
    assert [m for s, m, _ in history if s == seat] == [
        env.game.encoding.move(a, r) for a, r in zip(actions, _positions(rnd, seat), strict=True)
    ]
    assert any(s != seat for s, _, _ in history)
    rules = env.game.rules
    assert total == round_value(rnd, rnd.ledger)[rules.side_of(seat)]


def _positions(rnd: bazar.Round, seat: int) -> Iterator[bazar.Round]:
    """The positions of ``rnd`` in which ``seat`` was to move, replayed on its deal."""
    fresh = bazar.Round(rnd.rules, **rnd.deal())
    for mover, move, _ in rnd.history():
        if mover == seat:
            yield fresh.copy()
        fresh.push(move)


def test_the_bots_are_the_named_ones_and_a_seed_repeats_them() -> None:
    env = DominoEnv("draw", players=3, seat=1, opponents=["greedy", "heuristic"])
    twin = DominoEnv("draw", players=3, seat=1, opponents=["greedy", "heuristic"])
    assert play(env, 8) == play(twin, 8)
    assert env.round.moves == twin.round.moves
    assert {a: type(b) for a, b in env.bots.items()} == {
        "seat_0": bots.GreedyBot,
        "seat_2": bots.HeuristicBot,
    }
    # every bot move is the one a bot of that name and seed chooses from the seat's view
    env.reset(seed=8)
    again = {a: bots.make(b.name, seed=b.seed) for a, b in env.bots.items()}
    play(env, 8)
    fresh = bazar.Round(env.round.rules, **env.round.deal())
    for mover, move, _ in env.round.history():
        if mover != 1:
            view = fresh.view(mover)
            assert again[f"seat_{mover}"].choose(view, view.legal) is move
        fresh.push(move)


def test_a_seed_repeats_the_episode_and_reset_without_one_goes_on() -> None:
    env = DominoEnv("kozel", opponents="heuristic")
    first = env.reset(seed=4)[0]["observation"]
    following = env.reset()[0]["observation"]
    assert np.array_equal(first, env.reset(seed=4)[0]["observation"])
    assert np.array_equal(following, env.reset()[0]["observation"])
    assert not np.array_equal(first, following)
    assert play(env, 4) == play(env, 4)


@pytest.mark.parametrize(("variant", "seat"), [("block", 0), ("kozel-team", 3)])
def test_a_match_episode_rewards_every_round_and_the_result(variant: str, seat: int) -> None:
    env = DominoEnv(variant, seat=seat, opponents="random", reward="match")
    _, total = play(env, 2)
    match = env.game.match
    assert match is not None and match.is_over() and len(match.rounds) > 1
    result = match.result()
    assert result is not None
    side = env.game.rules.side_of(seat)
    expected = sum(round_value(r, r.ledger)[side] for r in match.rounds)
    expected += (seat in result.winners) - (seat in result.losers)
    assert total == pytest.approx(expected)


def test_an_illegal_action_raises_unless_it_is_given_a_reward() -> None:
    env = DominoEnv("block", opponents="random")
    observation, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = env.round.moves
    with pytest.raises(IllegalAction, match="legal"):
        env.step(illegal)
    assert env.round.moves == before
    lenient = DominoEnv("block", opponents="random", illegal_reward=-50.0)
    lenient.reset(seed=1)
    observation, reward, terminated, truncated, _ = lenient.step(illegal)
    assert (reward, terminated, truncated) == (-50.0, True, False)
    with pytest.raises(RuntimeError, match="reset"):
        lenient.step(0)


def test_max_moves_truncates_the_learners_episode() -> None:
    env = DominoEnv("mexican-train", opponents="random", max_moves=10)
    observation, _ = env.reset(seed=3)
    truncated = terminated = False
    while not (truncated or terminated):
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward, terminated, truncated, _ = env.step(action)
    assert truncated and not terminated and reward == 0
    assert len(env.round.moves) == 10


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        DominoEnv("block", seat=2)
    with pytest.raises(ValueError, match="opponents"):
        DominoEnv("kozel", opponents=["random", "greedy"])
    with pytest.raises(bots.UnknownBot):
        DominoEnv("block", opponents="grandmaster")


def test_render_shows_the_learners_hand() -> None:
    env = DominoEnv("kozel-team", seat=3, opponents="random", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None
    hand = " ".join(str(t) for t in env.round.hands[3])
    assert f"seat_3's hand: {hand}" in text
