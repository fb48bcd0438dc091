"""Domino games for learning agents: a fixed encoding of every variant's moves and of what
a seat may know (:mod:`bazar.rl.encoding`), and environments for PettingZoo, OpenSpiel and
Gymnasium. Install with ``pip install 'bazar[rl]'``; ``import bazar`` never imports this
package or its dependencies."""
