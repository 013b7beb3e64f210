"""The ``dugout`` command (:mod:`dugout.cli.main`) and the argument checks its subcommands
share (:mod:`dugout.cli.args`).

This package's own ``__init__`` imports nothing, so a module that only needs the shared
argument types loads none of the subcommands.
"""
