"""What the club refuses, and why: each refusal has a stable code and its parameters beside
its English message, so the web page can say it in its own language. Both come from the
catalogue (:mod:`bazar.i18n`): the message, what a client without the code shows, is
``club.CODE``; what the page says of it, in English and Russian, ``web.error.CODE``.

>>> error = ServerError("not_your_turn", seat=2)
>>> error.to_json()
{'message': 'not your turn: seat 2 is to move', 'code': 'not_your_turn', 'params': {'seat': 2}}
"""

from __future__ import annotations

from typing import Any, Self

from bazar import i18n

__all__ = ["ServerError", "refusal_code"]


def refusal_code(name: str) -> str:
    """``name``, a refusal's code where the club holds it as a value: ``make messages`` finds
    ``refusal_code("too_large")`` as the catalogue's ``club.too_large`` (and
    ``web.error.too_large``)."""
    return name


class ServerError(ValueError):
    """A refusal: ``code`` (``club.CODE`` in the catalogue), its ``params``, the HTTP
    ``status``."""

    def __init__(self, code: str, status: int = 400, **params: Any) -> None:
        self.code = code
        self.params = params
        self.status = status
        super().__init__(i18n.t(f"club.{code}", "en", **params))

    @classmethod
    def passing_on(cls, code: str, error: Exception) -> Self:
        """The refusal ``code`` that passes on a library error (rules, a record): its English
        as ``reason``, its Russian (said by its code, where the catalogue has it) as
        ``reason_ru``."""
        reason = str(error)
        return cls(code, reason=reason, reason_ru=i18n.say(error, "ru") or reason)

    def to_json(self) -> dict[str, Any]:
        return {"message": str(self), "code": self.code, "params": self.params}
