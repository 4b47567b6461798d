"""Hand and Foot for reinforcement learning: a PettingZoo environment over the play engine.

    from handfoot.rl import handfoot_v0
    env = handfoot_v0.env(preset="pagat")

- :mod:`handfoot.rl.handfoot_v0`: the AEC environment (``env()``, ``raw_env()``), agents the seats.
- :mod:`handfoot.rl.actions`: the fixed index of macro actions and which are legal (the engine's
  ``step`` decides).
- :mod:`handfoot.rl.observation`: a seat's view as one array.
- :mod:`handfoot.rl.single_agent`: one seat as a Gymnasium environment against fixed policies.

Needs the ``rl`` extra (``pip install "handfoot[rl]"``: pettingzoo, gymnasium, numpy); docs/rl.md.
"""
