"""The local web app (``dugout play``): play any ruleset against any manager in a browser,
or watch two managers, with the search manager's hints and the game's analysis."""
