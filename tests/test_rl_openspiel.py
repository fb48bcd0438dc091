"""bazar's variants as OpenSpiel games (bazar.rl.openspiel): OpenSpiel's own random
simulation test with serialisation for every variant, the deal dealt by chance nodes, the
legal actions against bazar's legal moves, returns that are bazar's round values,
resampling that keeps the information state, and OpenSpiel's IS-MCTS playing games to
their end."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import ismcts, mcts

import bazar
from bazar.bots.sampler import round_value
from bazar.rl import openspiel as bos

bos.register()


def load(variant: str, **params: object) -> pyspiel.Game:
    return pyspiel.load_game(bos.game_name(variant), dict(params))


def dealt(game: pyspiel.Game, rng: random.Random) -> pyspiel.State:
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
    return state


def played(game: pyspiel.Game, seed: int, moves: int) -> pyspiel.State:
    """A state ``moves`` random player actions into deal ``seed`` (fewer if it ends)."""
    rng = random.Random(seed)
    state = dealt(game, rng)
    for _ in range(moves):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
    return state


def test_every_variant_is_registered_under_its_short_name() -> None:
    names = set(pyspiel.registered_names())
    assert {bos.game_name(v) for v in bazar.VARIANTS} <= names
    assert bos.game_name("kozel-team") == "bazar_kozel_team"
    assert bos.register() == [bos.game_name(v) for v in bazar.VARIANTS]  # idempotent


@pytest.mark.parametrize("variant", list(bazar.VARIANTS))
def test_openspiel_random_simulation_with_serialisation(variant: str) -> None:
    game = load(variant)
    assert game.num_players() == bazar.rules(variant).players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_type_declares_what_the_states_provide() -> None:
    kind = load("block").get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_information_state_string and kind.provides_information_state_tensor
    assert kind.provides_observation_string and kind.provides_observation_tensor


def test_parameters_are_the_players_and_the_options_openspiel_can_carry() -> None:
    game = load("kozel-team", players=4)
    assert game.num_players() == 4 and game.rules.teams == ((0, 2), (1, 3))
    big = load("block", set_max=9)
    assert len(big.deck) == 55 and big.rules.set_max == 9
    four = load("block", players=4)
    assert four.num_players() == 4 and four.dealing.hands == (7, 7, 7, 7)
    spec = bos.parameters("fives")
    assert all(isinstance(v, (int, bool, str, float)) for v in spec.values())
    with pytest.raises(ValueError):
        load("block", set_max=7)  # bazar's own check: not a set


def test_block_deals_seat_zero_then_seat_one_then_the_bazar() -> None:
    game = load("block")
    state = game.new_initial_state()
    order: list[int] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == sorted(set(range(28)) - set(order))
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        order.append(outcomes[len(order) % len(outcomes)][0])
        state.apply_action(order[-1])
    assert len(order) == 28
    tiles = [game.deck[i] for i in order]
    rnd = state.round
    assert sorted(rnd.hands[0]) == sorted(tiles[:7])
    assert sorted(rnd.hands[1]) == sorted(tiles[7:14])
    assert list(rnd.bazar) == tiles[14:]
    # Block's holder of the highest double leads it
    assert state.current_player() == rnd.leader


def test_a_lead_drawn_by_lot_is_a_chance_node_over_the_seats() -> None:
    game = load("fives")
    assert game.dealing.lot
    state = game.new_initial_state()
    for _ in range(game.dealing.tiles):
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)
    assert state.current_player() == 1 == state.round.leader


@pytest.mark.parametrize("variant", list(bazar.VARIANTS))
def test_legal_actions_are_bazars_legal_moves(variant: str) -> None:
    game = load(variant)
    encoding = game.encoding
    rng = random.Random(7)
    for _ in range(2):
        state = dealt(game, rng)
        while not state.is_terminal():
            rnd = state.round
            legal = state.legal_actions()
            assert legal == sorted(encoding.action(m, rnd) for m in rnd.legal_moves())
            assert {encoding.move(a, rnd) for a in legal} == set(rnd.legal_moves())
            assert state.current_player() == rnd.turn
            action = legal[int(rng.random() * len(legal))]
            assert state.action_to_string(state.current_player(), action) == (
                encoding.action_name(action)
            )
            state.apply_action(action)
        values = round_value(state.round)
        returns = state.returns()
        assert returns == [values[game.rules.side_of(s)] for s in range(game.num_players())]
        assert sum(returns) == pytest.approx(0.0, abs=1e-6)


def test_tensors_are_the_encodings_observation_of_the_seat() -> None:
    game = load("kozel-team")
    state = played(game, 3, 9)
    for seat in range(4):
        expected = game.encoding.observe(state.round.view(seat))
        assert np.array_equal(np.asarray(state.information_state_tensor(seat)), expected)
        assert np.array_equal(np.asarray(state.observation_tensor(seat)), expected)


def test_information_state_names_the_hand_and_every_move() -> None:
    game = load("draw")
    state = played(game, 11, 12)
    seat = state.current_player()
    text = state.information_state_string(seat)
    rnd = state.round
    for tile in rnd.hands[seat]:
        assert str(tile) in text
    for mover, move, tile in rnd.history():
        shown = f"{mover}:{move}" + (f"+{tile}" if tile is not None and mover == seat else "")
        assert shown in text
    other = 1 - seat
    assert state.information_state_string(other) != text
    assert len(state.observation_string(seat)) < len(text) or len(rnd.history()) < 3


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from([v for v in bazar.VARIANTS if v != "kolbasa"]),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 60),
)
def test_resampling_keeps_the_information_state_and_the_legal_actions(
    variant: str, seed: int, moves: int
) -> None:
    game = load(variant)
    state = played(game, seed, moves)
    if state.is_terminal():
        return
    seat = state.current_player()
    rng = random.Random(seed)
    for _ in range(3):
        twin = state.resample_from_infostate(seat, rng.random)
        assert twin.information_state_string(seat) == state.information_state_string(seat)
        assert twin.legal_actions() == state.legal_actions()
        assert sorted(twin.round.hands[seat]) == sorted(state.round.hands[seat])
        history = twin.history()
        if history:
            # the deal rewritten: replaying the history gives the resampled state
            replay = game.new_initial_state()
            for action in history:
                replay.apply_action(action)
            assert str(replay) == str(twin)
            assert replay.information_state_string(seat) == state.information_state_string(seat)
        else:
            # no deal replays to it (set-up draws, loose constraints): the round rebuilt
            # from the view plays on to its end
            play_out = twin.clone()
            while not play_out.is_terminal():
                play_out.apply_action(play_out.legal_actions()[0])
            assert sum(play_out.returns()) == pytest.approx(0.0, abs=1e-6)


def test_resampling_in_block_rewrites_the_deal() -> None:
    game = load("block")
    for seed in range(20):
        state = played(game, seed, 4)
        seat = state.current_player()
        twin = state.resample_from_infostate(seat, random.Random(seed).random)
        assert len(twin.history()) == len(state.history())
        chance = game.dealing.tiles
        assert twin.history()[chance:] == state.history()[chance:]


def test_kolbasa_cannot_be_resampled() -> None:
    state = played(load("kolbasa"), 1, 3)
    with pytest.raises(ValueError, match="blind rows"):
        state.resample_from_infostate(state.current_player(), random.Random(1).random)


def _ismcts_bot(game: pyspiel.Game, seed: int, simulations: int) -> ismcts.ISMCTSBot:
    rs = np.random.RandomState(seed)
    return ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
        uct_c=2.0 * (game.max_utility() - game.min_utility()),
        max_simulations=simulations,
        random_state=rs,
    )


@pytest.mark.parametrize(("variant", "games"), [("block", 3), ("kozel-team", 1)])
def test_openspiel_ismcts_plays_to_the_end(variant: str, games: int) -> None:
    game = load(variant)
    for seed in range(games):
        bot = _ismcts_bot(game, seed, 15)
        state = dealt(game, random.Random(seed))
        while not state.is_terminal():
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert sum(state.returns()) == pytest.approx(0.0, abs=1e-6)
