"""Pictures of a game: ``render_mode="rgb_array"`` (dugout.envs.core.picture and each
ruleset's ``picture.scene``) and the GIF writer."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from PIL import Image  # Pillow comes with matplotlib (the plots extra, in the test set-up)

import dugout.envs as envs
from dugout.envs.core.bases import EMPTY_BASES
from dugout.envs.core.picture import DEFAULT_SIZE, Scene, draw, write_gif
from dugout.envs.core.series import Series

import helpers

SHAPE = (DEFAULT_SIZE[1], DEFAULT_SIZE[0], 3)


def scene_of(env_id: str, env) -> Scene:
    """The scene that ``render()`` draws for ``env`` (its ruleset's ``picture.scene``)."""
    return env.unwrapped._scene()


def check_frame(frame) -> None:
    assert isinstance(frame, np.ndarray)
    assert frame.dtype == np.uint8
    assert frame.shape == SHAPE


# -- through the env --------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_render_modes_include_rgb_array(env_id):
    env = envs.make(env_id, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    assert env.unwrapped.render_mode == "rgb_array"


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_render_every_step_of_random_games(env_id):
    """A picture of a fixed shape at every step, dead steps included; it changes with the game."""
    env = envs.make(env_id, render_mode="rgb_array", innings=2)
    for seed in range(1, 1 + helpers.games(2, 1)):
        env.reset(seed=seed)
        first = env.render()
        check_frame(first)
        frames = [first]
        rng = random.Random(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
            frames.append(env.render())
            check_frame(frames[-1])
        assert not np.array_equal(frames[0], frames[-1])
        # most steps change what is shown (the decision, the runners, the last play)
        changed = sum(not np.array_equal(a, b) for a, b in zip(frames, frames[1:]))
        assert changed >= len(frames) // 3


@pytest.mark.parametrize("env_id,options", helpers.cases(),
                         ids=[helpers.case_id(*c) for c in helpers.cases()])
def test_scene_at_every_decision_reads_without_changing(env_id, options):
    """scene() works at every state of random games (every option set) and changes nothing."""
    env = helpers.make(env_id, options, raw=True)
    for seed in range(3, 3 + helpers.games(3, 1)):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while True:
            before = helpers.dumps(env.game)
            s = scene_of(env_id, env)
            assert helpers.dumps(env.game) == before
            b = env.game.board
            assert (s.inning, s.half, s.outs) == (b.inning, b.half, b.outs)
            assert tuple(r is not None for r in s.runners) == tuple(r is not None for r in b.bases)
            assert s.line_score == (tuple(b.line[0]), tuple(b.line[1]))
            assert s.runs == tuple(b.runs)
            assert s.series == ""
            if env.game.pending is None:
                break
            d = env.game.pending
            assert s.to_act == f"{('away', 'home')[d.actor]} to decide: {d.kind}"
            assert len(s.options) == len(d.legal)
            assert s.final == ""
            env.step(rng.choice(d.legal))
        assert s.final.startswith(("Final:", "Game cut off"))
        assert s.to_act == "" and s.options == ()
        assert s.last_play


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_render_before_reset_raises(env_id):
    raw = envs.make(env_id, raw=True, render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="before reset"):
        raw.render()
    wrapped = envs.make(env_id, render_mode="rgb_array")
    with pytest.raises((RuntimeError, AssertionError), match="reset"):   # PettingZoo's wrapper
        wrapped.render()


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_other_render_modes_unchanged(env_id):
    env = envs.make(env_id, render_mode="ansi")
    env.reset(seed=0)
    assert isinstance(env.render(), str)
    env = envs.make(env_id)
    env.reset(seed=0)
    assert env.render() is None


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_pettingzoo_render_test(env_id):
    from pettingzoo.test import render_test
    render_test(lambda render_mode=None: envs.make(env_id, render_mode=render_mode, innings=1))


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_forfeit_is_shown(env_id):
    """Under env(), an illegal action ends the episode: the picture says so."""
    env = envs.make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    mask = env.last()[0]["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    s = scene_of(env_id, env)
    assert s.final.startswith("Forfeit:") and s.to_act == ""
    check_frame(env.render())


# -- known states --------------------------------------------------------------------------------
def _situation(env, bases, outs, line, runs):
    """Restore ``env`` to a clone of its game with this board (a read-only check of scene())."""
    state = env.game.clone()
    b = state.board
    b.bases, b.outs = bases, outs
    b.line = [list(line[0]), list(line[1])]
    b.runs = list(runs)
    b.inning, b.half = len(line[0]), 1 - (len(line[0]) - len(line[1]))
    env.restore(state)
    return state


def test_thats_baseball_scene_of_a_known_state():
    env = envs.make("thats_baseball_v0", raw=True, render_mode="rgb_array")
    env.reset(seed=7)
    state = _situation(env, (0, None, 4), 2, ((1, 0, 2), (0, 3)), (3, 3))
    s = scene_of("thats_baseball_v0", env)
    batters = state.teams[0].batters
    assert s.runners == (batters[0].name.split()[-1], None, batters[4].name.split()[-1])
    assert (s.outs, s.inning, s.half) == (2, 3, 0)
    assert s.line_score == ((1, 0, 2), (0, 3)) and s.runs == (3, 3)
    assert s.teams == (env.teams[0].name, env.teams[1].name)
    assert s.count == "" and s.hand == ""                      # no count, no cards
    batter = batters[state.order[0]]
    assert s.at_bat == f"At bat for the {env.teams[0].name}: {batter.name} (AA {batter.aa})"
    check_frame(env.render())


def test_grand_slam_scene_of_a_known_state():
    from dugout.envs.grand_slam.cards import CARD_TYPES
    env = envs.make("grand_slam_v0", raw=True, render_mode="rgb_array", render_agent="spectator")
    env.reset(seed=7)
    state = env.game.clone()
    state.runner_cards = [None] * 9
    state.runner_cards[2], state.runner_cards[5] = 4, 0          # a walk and a single
    env.restore(state)
    state = _situation(env, (None, 2, 5), 1, ((0, 0), (2, 0)), (0, 2))
    s = scene_of("grand_slam_v0", env)
    assert s.runners == (None, "Batter 3 (Walk)", "Batter 6 (Single)")
    assert (s.outs, s.inning, s.half) == (1, 2, 1)
    assert s.line_score == ((0, 0), (2, 0)) and s.runs == (0, 2)
    assert s.teams == ("Visitors", "Home")
    # the spectator sees both hands, as the text render does
    for seat, side in enumerate(("away", "home")):
        held = [CARD_TYPES[c].label for c in range(16) for _ in range(state.hands[seat][c])]
        assert f"{side} hand: {', '.join(held)}; PH/RP stacks: {len(state.stacks[seat])}" in s.hand
    assert s.notes and s.notes[0].startswith(f"Draw pile: {len(state.deck)} cards")
    check_frame(env.render())


def test_showdown_scene_of_a_known_state():
    env = envs.make("showdown_v0", raw=True, render_mode="rgb_array")
    env.reset(seed=7)
    lineup = env.game.lineup[0]                                   # the away team bats
    _situation(env, (lineup[1], lineup[2], None), 0, ((0,), ()), (0, 0))
    state = env.game
    s = scene_of("showdown_v0", env)
    c1, c2 = state.card(0, lineup[1]), state.card(0, lineup[2])
    assert s.runners == (f"{c1.name} (Spd {c1.speed})", f"{c2.name} (Spd {c2.speed})", None)
    assert (s.outs, s.inning, s.half) == (0, 1, 0)
    assert s.teams == (state.teams[0].name, state.teams[1].name)
    pitcher = state.card(1, state.pitcher[1])
    assert f"faces {pitcher.name} (Control {pitcher.control}" in s.at_bat
    ab = state.ab
    if ab.chart is None:
        assert s.count == ""                                     # no pitch yet this at-bat
    else:
        assert s.count.startswith(f"At-bat: pitch {ab.pitch}")
    check_frame(env.render())


def _pokemon_at_first_pitch(seed, **options):
    """A raw Pokemon Baseball env (rgb_array) played to its first decision after the lineups."""
    env = envs.make("pokemon_baseball_v0", raw=True, render_mode="rgb_array", **options)
    env.reset(seed=seed)
    rng = random.Random(seed)
    while not env.game.started:
        env.step(rng.choice(env.game.pending.legal))
    return env


def test_pokemon_baseball_scene_of_a_known_state():
    env = _pokemon_at_first_pitch(7)
    order = env.game.lineup[0]                                    # the away team bats
    state = _situation(env, (order[5], None, order[7]), 2, ((1, 0, 2), (0, 3)), (3, 3))
    s = scene_of("pokemon_baseball_v0", env)
    away, home = state.teams
    c5, c7 = away.roster[order[5]], away.roster[order[7]]
    assert s.runners == (f"{c5.name} (Ret {c5.retreat})", None, f"{c7.name} (Ret {c7.retreat})")
    assert (s.outs, s.inning, s.half) == (2, 3, 0)
    assert s.line_score == ((1, 0, 2), (0, 3)) and s.runs == (3, 3)
    assert s.teams == (away.name, home.name)
    assert s.count == "" and s.hand == ""                         # no count, no cards
    k = state.batter_creature()
    batter = away.roster[k]
    assert s.at_bat == (f"At bat for the {away.name}: {batter.name} (HP {state.hp(0, k)}, "
                        f"level {batter.level}, attack {batter.attack}, retreat {batter.retreat})")
    pitcher = home.roster[state.pitcher(1)]
    assert s.notes == (f"Pitching for the {home.name}: {pitcher.name} (HP {state.hp(1, state.pitcher(1))}, "
                       f"level {pitcher.level}, attack {pitcher.attack})",)
    check_frame(env.render())


def test_pokemon_baseball_scene_shows_hp_lost_to_an_injury():
    env = _pokemon_at_first_pitch(3)
    state = env.game.clone()
    k = state.batter_creature()
    state.hp_loss[0][k] = 20                                      # an injury earlier this game
    env.restore(state)
    hp = env.game.hp(0, k)
    assert hp == max(10, state.creature(0, k).hp - 20)
    assert f"(HP {hp}, level" in scene_of("pokemon_baseball_v0", env).at_bat
    check_frame(env.render())


def test_pokemon_baseball_scene_before_the_first_pitch():
    env = envs.make("pokemon_baseball_v0", raw=True, render_mode="rgb_array")
    env.reset(seed=1)
    s = scene_of("pokemon_baseball_v0", env)
    assert s.at_bat == "" and s.notes == ("Before the first pitch: the managers set their lineups.",)
    assert s.to_act == "away to decide: lineup"
    assert len(s.options) == len(env.game.pending.legal)
    assert s.runners == (None, None, None) and s.last_play == ""
    check_frame(env.render())


def test_pokemon_baseball_forfeit_is_shown():
    """A team that cannot field nine rested creatures forfeits 9-0: the picture says who."""
    from dugout.envs.core import Dice
    from dugout.envs.pokemon_baseball import rules
    env = envs.make("pokemon_baseball_v0", raw=True, render_mode="rgb_array")
    env.reset(seed=0)
    away, home = env.teams
    resting = [[0] * len(away.roster), [1] * len(home.roster)]        # the home team all resting
    env.restore(rules.new_game(away, home, Dice(0), resting=resting))
    s = scene_of("pokemon_baseball_v0", env)
    assert s.notes == (f"{home.name} cannot field nine rested creatures and forfeit, 9-0.",)
    assert s.final == f"Final: {away.name} win 9-0." and s.at_bat == "" and s.to_act == ""
    check_frame(env.render())


def test_showdown_basic_game_before_the_starters_are_chosen():
    env = envs.make("showdown_v0", raw=True, render_mode="rgb_array", level="basic")
    env.reset(seed=1)
    s = scene_of("showdown_v0", env)
    assert s.to_act.endswith("starting_pitcher") and len(s.options) == 4
    check_frame(env.render())


def test_showdown_count_follows_the_at_bat():
    env = envs.make("showdown_v0", raw=True, render_mode="rgb_array")
    env.reset(seed=2)
    rng = random.Random(2)
    seen = set()
    while env.game.pending is not None and len(seen) < 2:
        ab = env.game.ab
        s = scene_of("showdown_v0", env)
        if ab.chart is not None:
            assert s.count.startswith("At-bat: ")
            assert ("pitcher's chart" if ab.chart == "P" else "batter's chart") in s.count
            seen.add(ab.swing is not None)
        env.step(rng.choice(env.game.pending.legal))
    assert seen


def test_final_scene_marks_the_home_teams_unplayed_half():
    env = envs.make("thats_baseball_v0", raw=True, render_mode="rgb_array", innings=1)
    env.reset(seed=0)
    state = env.game.clone()
    b = state.board
    b.bases, b.outs, b.line, b.runs = EMPTY_BASES, 0, [[0], []], [0, 1]
    b.over, b.winner = True, 1
    state.pending = None
    env.restore(state)
    s = scene_of("thats_baseball_v0", env)
    assert s.final.startswith("Final: ") and s.line_score == ((0,), ())
    check_frame(env.render())


# -- a series ----------------------------------------------------------------------------------
def test_series_through_the_env():
    """A series end to end, on Grand Slam made to play series (nothing carries over)."""
    from dugout.envs.core.series import check_series
    from dugout.envs.grand_slam.env import GrandSlamEnv

    class SeriesGrandSlam(GrandSlamEnv):
        PLAYS_SERIES = True

        def __init__(self, series=None, **options):
            super().__init__(**options)
            self.series_format = check_series("grand_slam_v0", series)

        def _new_game(self, seed, carry=None):
            return super()._new_game(seed)

        def _carry_over(self, finished, series):
            return None

    env = SeriesGrandSlam(series=3, innings=1, render_mode="rgb_array")
    env.reset(seed=4)
    rng = random.Random(4)
    titles = [scene_of("grand_slam_v0", env).series]
    frames = [env.render()]
    while not env.series_.over:
        env.step(rng.choice(env.game.pending.legal))
        titles.append(scene_of("grand_slam_v0", env).series)
        frames.append(env.render())
    assert titles[0] == "Best-of-3 series, game 1: away 0, home 0."
    assert "game 2" in " ".join(titles)
    assert titles[-1].startswith("Best-of-3 series, final: ")
    assert scene_of("grand_slam_v0", env).final.endswith(titles[-1])
    for f in frames:
        check_frame(f)


def test_series_standing_is_shown():
    """A series record on the env shows in the scene's series line (rulesets that do not
    play series yet: the record is set by hand, scene() reads ``env.series_``)."""
    env = envs.make("grand_slam_v0", raw=True, render_mode="rgb_array")
    env.reset(seed=0)
    series = Series(5, best_of=True, seed=0, game=3,
                    results=[{"away": 3, "home": 1, "winner": "away"},
                             {"away": 0, "home": 2, "winner": "home"}])
    env.series_ = series
    s = scene_of("grand_slam_v0", env)
    assert s.series == "Best-of-5 series, game 3: away 1, home 1."
    check_frame(draw(s))


# -- draw() ----------------------------------------------------------------------------------
def _scene(**kw) -> Scene:
    base = dict(title="Away at Home", teams=("Away", "Home"), inning=3, half=1, outs=2,
                runners=("A", None, "C"), line_score=((1, 0, 2), (0, 0)), runs=(3, 0),
                hits=(5, 2), errors=(0, 1), at_bat="Somebody (AA 27)", to_act="home to decide: steal",
                options=("0: no steal", "1: runner on first steals second"),
                last_play="Bottom 3rd: Somebody singled.")
    base.update(kw)
    return Scene(**base)


def test_draw_sizes_and_changes():
    a = draw(_scene())
    assert a.shape == SHAPE and a.dtype == np.uint8
    assert not np.array_equal(a, draw(_scene(outs=1)))
    assert not np.array_equal(a, draw(_scene(runners=(None, None, None))))
    for size in ((320, 240), (800, 450), (500, 700), (641, 479)):
        frame = draw(_scene(), size=size)
        assert frame.shape == (size[1], size[0], 3) and frame.dtype == np.uint8
    for bad in ((0, 10), (640,), "big", (640.0, 480), (10**5, 480)):
        with pytest.raises(ValueError, match="size"):
            draw(_scene(), size=bad)


def test_draw_long_text_and_extra_innings():
    long = "x " * 400
    s = _scene(title=long, at_bat=long, hand=long + "\n" + long, notes=(long,), last_play=long,
               options=tuple(f"{i}: option" for i in range(25)), teams=("T" * 60, "U" * 60),
               line_score=(tuple([0] * 17), tuple([0] * 16)), inning=17, runners=("R" * 80,) * 3)
    check_frame(draw(s))
    check_frame(draw(_scene(teams=("$Cash $", "a_b^c$"), last_play="$1 $x^2$ {")))   # no mathtext
    check_frame(draw(_scene(final="Final: Home win 4-3.", series="Best-of-3 series, final: away 1, home 2.")))


def test_scene_checks_its_fields():
    with pytest.raises(ValueError):
        Scene(runners=(None, None))
    with pytest.raises(ValueError):
        Scene(half=2)


def test_draw_without_matplotlib(monkeypatch):
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError, match=r"pip install dugout-baseball\[plots\]"):
        draw(_scene())


def test_draw_in_threads():
    from concurrent.futures import ThreadPoolExecutor
    scenes = [_scene(outs=k % 3) for k in range(6)]
    with ThreadPoolExecutor(3) as pool:
        frames = list(pool.map(draw, scenes))
    for s, f in zip(scenes, frames):
        assert np.array_equal(f, draw(s))


# -- GIFs ----------------------------------------------------------------------------------
def test_write_gif(tmp_path):
    frames = [draw(_scene(outs=k % 3, inning=k + 1, line_score=((0,) * (k + 1), (0,) * k)))
              for k in range(4)]
    path = write_gif(frames, tmp_path / "game.gif", fps=4)
    assert path == tmp_path / "game.gif"
    with Image.open(path) as im:
        assert im.format == "GIF" and im.is_animated
        assert im.n_frames == 4
        assert im.size == DEFAULT_SIZE
        assert im.info["duration"] == 250
        assert im.info.get("loop") == 0
        im.seek(2)
        got = np.asarray(im.convert("RGB"))
    assert np.abs(got.astype(int) - frames[2].astype(int)).mean() < 4     # a faithful palette
    one = write_gif(frames[:1], str(tmp_path / "one.gif"))
    with Image.open(one) as im:
        assert im.n_frames == 1


def test_write_gif_from_a_game(tmp_path):
    env = envs.make("grand_slam_v0", render_mode="rgb_array", innings=1)
    env.reset(seed=3)
    frames = [env.render()]
    rng = random.Random(3)
    while env.unwrapped.game.pending is not None and len(frames) < 8:
        env.step(rng.choice(env.unwrapped.game.pending.legal))
        frames.append(env.render())
    path = write_gif(frames, tmp_path / "replay.gif")
    with Image.open(path) as im:
        assert im.n_frames >= 2 and im.size == DEFAULT_SIZE


def test_write_gif_rejects_bad_frames(tmp_path):
    good = draw(_scene())
    cases = [
        ([], "at least one frame"),
        ([good, good[:100]], "same shape"),
        ([good.astype(np.float32)], "uint8"),
        ([good[..., 0]], "H x W x 3"),
        ([np.zeros((4, 4, 4), np.uint8)], "H x W x 3"),
        ([good.tolist()], "H x W x 3"),
        ([np.zeros((0, 4, 3), np.uint8)], "empty"),
    ]
    for frames, message in cases:
        with pytest.raises(ValueError, match=message):
            write_gif(frames, tmp_path / "bad.gif")
    for fps in (0, -1, float("nan"), "2", True):
        with pytest.raises(ValueError, match="fps"):
            write_gif([good], tmp_path / "bad.gif", fps=fps)
    assert not (tmp_path / "bad.gif").exists()
