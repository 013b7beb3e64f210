"""The lab: studies, calibrations, benchmarks and the main job, built on the library.

Nothing in the library (``dugout.envs``, ``dugout.agents``, ``dugout.train``,
``dugout.vector``, ``dugout.evaluate``, ``dugout.integrations``) imports this package; it
stands on all of them (``tests/test_imports.py``). Each module is one ``dugout``
subcommand (``configure``, ``check``, ``run``, :mod:`dugout.cli.main`) and runs as
``python -m dugout.studies.MODULE`` too:

* :mod:`dugout.studies.pipeline`: the main job (``dugout pipeline``, ``scripts/main.sh``):
  train briefly, then a tournament on every ruleset, with a report;
* :mod:`dugout.studies.bench`: decisions a second of every env, against PettingZoo's
  (``dugout bench``);
* :mod:`dugout.studies.bench_vector`: the batched engine's games a second (``dugout bench
  vector``);
* :mod:`dugout.studies.bench_train`: training speed, the batched trainer against SB3's
  (``dugout bench train``);
* :mod:`dugout.studies.bench_scaling`: how tournaments scale with workers on Ray
  (``dugout bench scaling``);
* :mod:`dugout.studies.bench_search`: the search manager's seconds a game and decisions a
  second, per ruleset (``dugout bench search``);
* :mod:`dugout.studies.strength`: seat-swapped tournaments of the search manager (or any two)
  against the heuristic on every ruleset, the search's table (``dugout strength``);
* :mod:`dugout.studies.standings`: random, pretrained, search and solver managers against the
  heuristic on every ruleset, with the solved games' exact scores: the README's benchmark
  table (``dugout standings``);
* :mod:`dugout.studies.bottom_ninth_cards`: Bottom of the 9th's cards, each batter against
  each pitcher (``dugout cards``);
* :mod:`dugout.studies.calibrate_showdown`: MLB Showdown's simulated seasons against the
  real ones (``dugout calibrate``);
* :mod:`dugout.studies.runs_fit`: the runs fit's search, each team's boost
  (``dugout runs-fit``; the library's :mod:`dugout.envs.realstats.runs_fit` reads what it
  stores);
* :mod:`dugout.studies.verify_thats_baseball` and :mod:`dugout.studies.verify_bottom_ninth`:
  each exact solver's values against simulated games from several states (``dugout verify
  thats_baseball``, ``dugout verify bottom_ninth``).

``python -m dugout.studies`` lists them; ``python -m dugout.studies NAME [flags]`` runs
one, as ``dugout NAME [flags]`` does.
"""
