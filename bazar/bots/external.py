"""External bots: a program in any language plays through a line protocol.

``make("cmd:./mybot.py --level 2")`` (and ``bazar arena ... --bots random,cmd:./mybot.py``)
starts the program once and keeps it running. For each decision the bot writes **one line**
to the program's standard input: the :class:`~bazar.View` as JSON (``View.to_json()``: the
legal moves are its ``"legal"`` list). The program answers **one line** on its standard
output: a move in notation, exactly as listed in ``"legal"`` (``6-5:L``, ``draw``, ``pass``).
A closed stream, a move not in ``legal`` or no answer in time is an error
(:class:`ExternalBotError`); the program's standard error is left alone.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import subprocess
from collections.abc import Sequence

from bazar.core.errors import invalid
from bazar.core.moves import Move
from bazar.core.view import View

from .base import Bot

__all__ = ["CommandBot", "ExternalBotError"]

#: seconds an external bot may think about one move
TIMEOUT = 30.0


class ExternalBotError(RuntimeError):
    """The external program broke the protocol."""


class CommandBot(Bot):
    """A program that reads views and writes moves, one JSON line each way."""

    name = "cmd"

    def __init__(self, command: str, seed: int | None = None, timeout: float = TIMEOUT) -> None:
        super().__init__(seed)
        self.command = command
        self.argv = shlex.split(command)
        if not self.argv:
            raise invalid("bot_command")
        self.timeout = timeout
        self._proc: subprocess.Popen[str] | None = None

    def __repr__(self) -> str:
        return f"CommandBot({self.command!r})"

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            env = dict(os.environ)
            if self.seed is not None:
                env["BAZAR_SEED"] = str(self.seed)
            self._proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
                env=env,
            )
        return self._proc

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(view.to_json(), separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise ExternalBotError(f"{self.command!r} stopped reading: {exc}") from None
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            if not sel.select(self.timeout):
                self.close()
                raise ExternalBotError(f"{self.command!r} gave no move in {self.timeout:g} s")
        line = proc.stdout.readline()
        if not line:
            raise ExternalBotError(f"{self.command!r} closed its output")
        try:
            move = Move.parse(line.strip())
        except ValueError:
            raise ExternalBotError(f"{self.command!r} answered {line.strip()!r}") from None
        if move not in legal:
            raise ExternalBotError(
                f"{self.command!r} played {line.strip()!r}, not one of "
                f"{', '.join(str(m) for m in legal)}"
            )
        return move

    def close(self) -> None:
        """Stop the program."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # interpreter shutdown
            self.close()
