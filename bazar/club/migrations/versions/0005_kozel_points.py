"""The Kozel club points in the ratings: ``ratings.points`` on each player's ``"kozel"`` row
instead of ``users.kozel_rating``.

A player with points and no Kozel row gets one of points alone: the skill every player
starts with (openskill's Plackett-Luce: mu 25, sigma 25/3) and no games, as a rated match
would make it. The downgrade puts the points back on the users and takes those rows away
(a row a rated match made has played a game).

Revision 0005, after 0004.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

#: a new player's skill when this revision was written
MU = 25.0
SIGMA = MU / 3


def upgrade() -> None:
    op.add_column(
        "ratings",
        sa.Column("points", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )
    op.execute(
        sa.text(
            "UPDATE ratings SET points = (SELECT kozel_rating FROM users"
            " WHERE users.id = ratings.user_id) WHERE game = 'kozel'"
        )
    )
    op.execute(
        sa.text(
            "INSERT INTO ratings (user_id, game, mu, sigma, games, points)"
            " SELECT id, 'kozel', :mu, :sigma, 0, kozel_rating FROM users"
            " WHERE kozel_rating <> 0"
            " AND id NOT IN (SELECT user_id FROM ratings WHERE game = 'kozel')"
        ).bindparams(mu=MU, sigma=SIGMA)
    )
    with op.batch_alter_table("users") as batch:
        batch.drop_column("kozel_rating")


def downgrade() -> None:
    op.add_column(
        "users",
        sa.Column("kozel_rating", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )
    op.execute(
        sa.text(
            "UPDATE users SET kozel_rating = COALESCE((SELECT points FROM ratings"
            " WHERE ratings.user_id = users.id AND ratings.game = 'kozel'), 0)"
        )
    )
    op.execute(sa.text("DELETE FROM ratings WHERE game = 'kozel' AND games = 0"))
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("points")
    # the baseline's column has no default of the database's
    with op.batch_alter_table("users") as batch:
        batch.alter_column("kozel_rating", existing_type=sa.Integer(), server_default=None)
