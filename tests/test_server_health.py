"""``/api/health``: what a load balancer asks each process of the club."""

from __future__ import annotations

import os

from server_helpers import TestClient, create, guest, make_app


def test_health_names_the_process_and_counts_the_tables_it_runs(db: str) -> None:
    app = make_app(db)
    with TestClient(app) as client:
        answer = client.get("/api/health")
        assert answer.status_code == 200
        assert answer.json() == {
            "ok": True,
            "node": app.state.club.node,
            "pid": os.getpid(),
            "tables": 0,
        }
        guest(client, "Masha")
        create(client, game="kozel", players=4)
        assert client.get("/api/health").json()["tables"] == 1
