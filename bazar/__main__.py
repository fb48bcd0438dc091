"""``python -m bazar``: the same program as the ``bazar`` command."""

from __future__ import annotations

from .cli import main

if __name__ == "__main__":
    main()
