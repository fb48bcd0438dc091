"""A git merge driver for the catalogues: two branches that each added or changed messages
merge by message, not by line (``.gitattributes`` names it; ``git config merge.catalogue.driver
".venv/bin/python tools/pomerge.py %O %A %B"`` installs it). A message both sides changed
differently is a conflict: ours is kept, and the driver fails so that git says so.

After a merge, compile the catalogues (``make messages``): the .mo files are not merged.
"""

from __future__ import annotations

import sys

from babel.messages.pofile import read_po, write_po


def merge(base_path: str, ours_path: str, theirs_path: str) -> int:
    with open(base_path, "rb") as f:
        base = read_po(f)
    with open(ours_path, "rb") as f:
        ours = read_po(f)
    with open(theirs_path, "rb") as f:
        theirs = read_po(f)
    conflicts = 0
    for message in theirs:
        if not message.id:
            continue
        old = base.get(message.id)
        mine = ours.get(message.id)
        if mine is None:
            if old is None:  # theirs added it
                ours[message.id] = message
            continue  # we removed it
        if mine.string == message.string or (old is not None and old.string == message.string):
            continue
        if old is not None and old.string == mine.string:
            mine.string = message.string  # only theirs changed it
            mine.auto_comments = message.auto_comments
        else:
            conflicts += 1
            print(f"catalogue conflict: {message.id!r}", file=sys.stderr)
    for message in list(base):
        if message.id and message.id not in theirs and message.id in ours:
            mine = ours[message.id]
            if mine.string == message.string:
                del ours[message.id]  # theirs removed it, we left it alone
    with open(ours_path, "wb") as f:
        write_po(f, ours, width=100, include_previous=False)
    return 1 if conflicts else 0


if __name__ == "__main__":
    sys.exit(merge(*sys.argv[1:4]))
