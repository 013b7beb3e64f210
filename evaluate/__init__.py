"""The evaluation harness: tournaments of managers (:mod:`.tournament`), their statistics
(:mod:`.stats`) and reports (:mod:`.report`), where the games are played (:mod:`.backends`:
this process, worker processes or a Ray cluster), the command lines (:mod:`.cli`) and the
Manager Challenge's evaluation (:mod:`.manager_challenge`). Studies, calibrations,
benchmarks and the main job built on it are the lab's, :mod:`dugout.studies`."""
