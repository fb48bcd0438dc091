"""The PettingZoo AEC environment (``bazar/rl/pettingzoo.py``) and its text render
(``bazar/rl/render.py``): PettingZoo's own tests on every variant (those that apply to a
turn-based game with a dict observation: the API, seed and render tests; the parallel,
state, cycle-limit and image tests are for other kinds of environment, and the bombardment
test reads observations as arrays), then what the library's tests cannot see: observations
from the seat's view alone, masks that are the legal moves, records that replay, the rewards
of rounds and matches, truncation and the errors."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test, seed_test

import bazar
from bazar.bots.sampler import Determinizer, round_value
from bazar.rl import pettingzoo as bz
from bazar.rl.encoding import Encoding, IllegalAction

#: every game, in a fixed order (Hypothesis samples from a sequence)
VARIANTS = list(bazar.VARIANTS)
#: the games whose hidden deal the sampler can draw again from a view (Kolbasa's blind
#: rows it cannot)
RESAMPLED = [v for v in VARIANTS if bazar.rules(v).variant.determinizable]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # PettingZoo's tests warn about what is by design here: the waiting seats' all-zero
    # masks, the observation dict
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def play_out(env: Any, seed: int) -> tuple[list[int], dict[str, float]]:
    """A whole episode with random legal actions: the actions and each agent's total reward."""
    totals = {agent: 0.0 for agent in env.possible_agents}
    actions = []
    env.reset(seed=seed)
    rng = random.Random(seed)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        actions.append(action)
        env.step(action)
    return actions, totals


# -- PettingZoo's own tests ---------------------------------------------------------------


@pytest.mark.parametrize("variant", bazar.VARIANTS)
def test_every_variant_passes_pettingzoos_own_tests(variant: str) -> None:
    for reward in bz.REWARDS:
        api_test(bz.env(variant, reward=reward), num_cycles=100)
        seed_test(lambda reward=reward: bz.env(variant, reward=reward), num_cycles=100)
    api_test(bz.env(variant, max_moves=6), num_cycles=10)
    render_test(lambda render_mode=None: bz.env(variant, render_mode=render_mode))


@pytest.mark.parametrize(
    ("variant", "players"),
    [("block", 3), ("block", 4), ("mexican-train", 2), ("mexican-train", 6), ("fives", 4)],
)
def test_other_tables_pass_the_api_and_seed_tests(variant: str, players: int) -> None:
    api_test(bz.env(variant, players=players), num_cycles=100)
    seed_test(lambda: bz.env(variant, players=players), num_cycles=100)
    assert bz.env(variant, players=players).possible_agents == [f"seat_{s}" for s in range(players)]


# -- what the agents see ------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(RESAMPLED), st.integers(0, 2**32), st.integers(0, 200), st.data())
def test_an_observation_depends_on_the_seats_view_alone(
    variant: str, seed: int, moves: int, data: st.DataObject
) -> None:
    """A round dealt again to agree with seat s's view (the other hands and the bazar
    drawn anew) gives seat s the observation the environment gave it."""
    env = bz.raw_env(variant)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        observation = env.observe(env.agent_selection)
        action = rng.choice(np.flatnonzero(observation["action_mask"]).tolist())
        ahead = env.round.copy()
        ahead.push(env.encoding.move(action, ahead))
        if ahead.is_over():  # a finished round's view is not one a deal is drawn for
            break
        env.step(action)
    seat = data.draw(st.integers(0, env.rules.players - 1))
    agent = env.possible_agents[seat]
    seen = env.observe(agent)["observation"]
    view = env.round.view(seat)
    # a deal the view contradicts (the sampler's last, relaxed try may draw one) is
    # rejected by the rebuild and drawn again, as a searching bot draws it
    dealer = Determinizer(view)
    twins = (dealer.round(random.Random(seed + k)) for k in range(1, 20))
    twin = next((t for t in twins if t is not None and t.turn == view.turn), None)
    assume(twin is not None)
    assert twin is not None and twin.view(seat).hand == view.hand
    assert np.array_equal(env.encoding.observe_round(twin, seat), seen)
    assert np.array_equal(env.encoding.observe(view), seen)


def test_kolbasas_observation_is_its_views() -> None:
    # Kolbasa's blind rows cannot be dealt again from a view; its observation is still the
    # encoding of the seat's view
    env = bz.raw_env("kolbasa")
    env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(30):
        for seat, agent in enumerate(env.possible_agents):
            view = env.round.view(seat)
            assert np.array_equal(env.observe(agent)["observation"], env.encoding.observe(view))
        env.step(rng.choice(env.encoding.legal_actions(env.round)))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32))
def test_the_mask_is_the_legal_moves_of_the_seat_to_move(variant: str, seed: int) -> None:
    env = bz.raw_env(variant, reward="match", max_moves=150)
    env.reset(seed=seed)
    enc = env.encoding
    rng = random.Random(seed)
    while not env._over:
        rnd = env.round
        legal = rnd.legal_moves()
        for agent in env.possible_agents:
            mask = env.observe(agent)["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (enc.num_actions,)
            if agent != env.agent_selection:
                assert not mask.any()
                continue
            ids = np.flatnonzero(mask).tolist()
            assert ids == sorted(enc.action(m, rnd) for m in legal)
            assert {enc.move(a, rnd) for a in ids} == set(legal)
        env.step(rng.choice(enc.legal_actions(env.round)))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32))
def test_an_episodes_actions_replay_on_a_fresh_round_of_its_deal(variant: str, seed: int) -> None:
    """The actions decoded on a new Round of the same deal give the same moves, the same
    outcome and the same rewards."""
    env = bz.raw_env(variant)
    actions, totals = play_out(env, seed)
    rules = env.rules
    fresh = bazar.Round(rules, **env.round.deal())
    enc = Encoding.of(rules)
    for action in actions:
        fresh.push(enc.move(action, fresh))
    assert fresh.moves == env.round.moves
    outcome = fresh.outcome()
    assert outcome is not None and outcome.to_json() == env.round.outcome().to_json()  # type: ignore[union-attr]
    values = round_value(fresh, fresh.ledger)
    assert totals == {
        agent: values[rules.side_of(seat)] for seat, agent in enumerate(env.possible_agents)
    }


# -- rewards ------------------------------------------------------------------------------


def test_a_block_round_rewards_the_winner_the_points_the_ledger_gives_him() -> None:
    env = bz.raw_env("block")
    _, totals = play_out(env, 11)
    outcome = env.round.outcome()
    assert outcome is not None
    gains = bazar.Ledger.new(env.rules).settle(outcome).scores
    # two players: the value is what one gains less what the other gains
    assert totals == {"seat_0": gains[0] - gains[1], "seat_1": gains[1] - gains[0]}
    assert sum(totals.values()) == 0


def test_partners_share_the_rounds_reward() -> None:
    for seed in range(5):
        _, totals = play_out(bz.raw_env("kozel-team"), seed)
        assert totals["seat_0"] == totals["seat_2"]
        assert totals["seat_1"] == totals["seat_3"]
        assert totals["seat_0"] == -totals["seat_1"]


def test_rewards_come_only_when_the_round_ends() -> None:
    env = bz.env("draw")
    env.reset(seed=2)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if not (terminated or truncated):
            assert reward == 0
            assert not env.unwrapped.round.is_over()
            env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
        else:
            assert env.unwrapped.round.is_over()
            env.step(None)


@pytest.mark.parametrize("variant", ["block", "kozel-team", "fives", "poker"])
def test_a_match_rewards_every_round_then_plus_one_to_the_winners(variant: str) -> None:
    env = bz.raw_env(variant, reward="match")
    _, totals = play_out(env, 3)
    match = env.match
    assert match is not None and match.is_over()
    result = match.result()
    assert result is not None and len(match.rounds) >= 2
    rules = env.rules
    for seat, agent in enumerate(env.possible_agents):
        expected = sum(round_value(r, r.ledger)[rules.side_of(seat)] for r in match.rounds)
        expected += (seat in result.winners) - (seat in result.losers)
        assert totals[agent] == pytest.approx(expected)


def test_a_match_episode_goes_on_across_rounds() -> None:
    env = bz.raw_env("block", reward="match")
    env.reset(seed=4)
    first = env.round
    rng = random.Random(4)
    while env.round is first:
        assert not any(env.terminations.values())
        env.step(rng.choice(env.encoding.legal_actions(env.round)))
    assert first.is_over() and env.round.number == 2
    assert not any(env.terminations.values())
    # the round's values came as it ended, each seat's in its cumulative reward
    values = round_value(first, first.ledger)
    assert values[0] != 0
    assert [env._cumulative_rewards[a] for a in env.possible_agents] == values


def test_max_moves_truncates_every_agent_without_reward() -> None:
    env = bz.env("mexican-train", max_moves=7)
    env.reset(seed=1)
    seen = []
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        if truncated:
            seen.append(agent)
            assert reward == 0 and not terminated
            env.step(None)
            continue
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    assert sorted(seen) == env.possible_agents
    assert len(env.unwrapped.round.moves) == 7 and not env.unwrapped.round.is_over()


# -- seeds, errors, the protocol ----------------------------------------------------------


def test_a_seed_deals_the_same_round_and_reset_without_one_goes_on_from_it() -> None:
    env = bz.raw_env("kozel-team")
    deals = []
    for _ in range(2):
        env.reset(seed=9)
        first = env.round.deal()
        env.reset()
        deals.append((first, env.round.deal()))
    assert deals[0] == deals[1]
    assert deals[0][0] != deals[0][1]
    env.reset(seed=10)
    assert env.round.deal() != deals[0][0]


def test_an_illegal_action_names_the_legal_ids() -> None:
    env = bz.env("block")
    env.reset(seed=1)
    legal = env.unwrapped.encoding.legal_actions(env.unwrapped.round)
    illegal = next(a for a in range(env.unwrapped.encoding.num_actions) if a not in legal)
    with pytest.raises(IllegalAction) as error:
        env.step(illegal)
    assert str(legal[0]) in str(error.value)
    with pytest.raises(IllegalAction, match="legal"):
        env.step(None)
    with pytest.raises(ValueError):
        env.step(env.unwrapped.encoding.num_actions)
    # the refused actions changed nothing
    assert env.unwrapped.round.moves == []
    env.step(np.int64(legal[0]))
    assert len(env.unwrapped.round.moves) == 1


def test_a_done_agent_may_only_step_none() -> None:
    env = bz.env("block")
    play_out(env, 1)
    assert env.agents == []
    env.reset(seed=1)
    while not env.unwrapped.round.is_over():
        env.step(env.unwrapped.encoding.legal_actions(env.unwrapped.round)[0])
    with pytest.raises(ValueError, match="None"):
        env.step(0)


def test_the_wrapped_env_keeps_pettingzoos_order(caplog: pytest.LogCaptureFixture) -> None:
    env = bz.env("block")
    with pytest.raises(AssertionError, match="reset"):
        env.last()
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    play_out(env, 1)
    env.step(None)
    assert "Should reset() first" in caplog.text


def test_unknown_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="reward"):
        bz.env("block", reward="points")
    with pytest.raises(ValueError, match="render_mode"):
        bz.env("block", render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_moves"):
        bz.env("block", max_moves=0)
    with pytest.raises(bazar.UnknownVariant):
        bz.env("checkers")


def test_rules_options_reach_the_game() -> None:
    env = bz.raw_env("block", set_max=9, players=3)
    env.reset(seed=0)
    assert env.rules.set_max == 9 and len(env.round.hands) == 3
    assert (
        env.observation_space("seat_0")["observation"].shape
        == Encoding.of(env.rules).observation_shape
    )


# -- the render ---------------------------------------------------------------------------


def test_the_render_shows_the_seat_to_move_and_hides_the_other_hands() -> None:
    env = bz.env("kozel-team", render_mode="ansi")
    env.reset(seed=6)
    rng = random.Random(6)
    for _ in range(12):
        rnd = env.unwrapped.round
        seat = rnd.turn
        text = env.render()
        assert f"seat_{seat} to move" in text
        mine = " ".join(str(t) for t in rnd.hands[seat])
        assert f"seat_{seat}'s hand: {mine}" in text
        words = set(text.replace(":", " ").split())
        table = set(str(t) for t in rnd.board.tiles())
        for other, hand in enumerate(rnd.hands):
            if other != seat:
                assert not {str(t) for t in hand} & (words - table)
        env.step(rng.choice(env.unwrapped.encoding.legal_actions(rnd)))


def test_human_render_prints(capsys: pytest.CaptureFixture[str]) -> None:
    env = bz.env("block", render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert "seat_" in capsys.readouterr().out
    silent = bz.env("block")
    silent.reset(seed=1)
    assert silent.render() is None
