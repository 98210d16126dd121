"""The ``learned`` player and evaluation: a value network trained by self-play.

- :mod:`.features`: what the network sees of a position (the encoder as plain Python, for
  play; the compiled players run its Cython port in :mod:`pachisi.ai._compiled`);
- :mod:`.net`: the network, its weights files and numpy inference;
- :mod:`.value`: the shipped weights for a ruleset, as an evaluation of reference states
  (:class:`~.value.LearnedEvaluation` plugs into the searching players);
- :mod:`.player`: :class:`~.player.LearnedPlayer`, one action ahead with that evaluation;
- :mod:`.train`: the training command (``python -m pachisi.ai.learned.train``), whose
  self-play games are compiled (:mod:`pachisi.ai._compiled`).
"""
