"""``bazar replay``: a record told round by round, or as JSON."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import finished_record, one_line_error, run

import bazar


def test_replay_prints_rounds_and_the_ledger(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(finished_record(), encoding="utf-8")
    code, out, err = run("replay", str(path), "--lang", "en")
    assert code == 0, err
    assert "Round 1" in out and "Deal:" in out and "Moves:" in out
    assert "Scores:" in out and "Winner: seat" in out


def test_replay_json_has_the_documented_shape(tmp_path: Path) -> None:
    text = finished_record("block", seed=7)
    path = tmp_path / "m.json"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run("replay", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    match = bazar.record.loads(text)
    assert data["ledger"]["scores"] == list(match.ledger.scores)
    result = match.result()
    assert result is not None
    assert data["winners"] == list(result.winners) and data["losers"] == list(result.losers)
    assert len(data["rounds"]) == len(match.rounds)
    for entry, rnd in zip(data["rounds"], match.rounds, strict=True):
        outcome = rnd.outcome()
        assert outcome is not None
        assert entry["reason"] == outcome.reason and entry["out_seat"] == outcome.out_seat
        assert entry["remaining"] == [[str(t) for t in h or ()] for h in outcome.remaining]
    assert data["rounds"][-1]["scores"] == data["ledger"]["scores"]


def test_replay_of_an_unfinished_match(tmp_path: Path) -> None:
    match = bazar.Match(bazar.rules("draw"), seed=1)
    for _ in range(5):
        match.push(match.legal_moves()[0])
    path = tmp_path / "u.json"
    path.write_text(bazar.record.dumps(match), encoding="utf-8")
    code, out, _ = run("replay", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["winners"] == [] and data["rounds"][-1]["reason"] is None
    code, out, _ = run("replay", str(path), "--lang", "en")
    assert code == 0 and "unfinished" in out


def test_replay_bad_files_are_one_line_and_exit_2(tmp_path: Path) -> None:
    text = finished_record("block", seed=7)
    data = json.loads(text)
    moves = data["rounds"][0]["moves"]
    moves[1], moves[2] = moves[2], moves[1]
    cases = {
        "tampered.json": json.dumps(data),
        "broken.json": text[:-10],
        "other.json": json.dumps({"format": "pgn"}),
    }
    for name, content in cases.items():
        (tmp_path / name).write_text(content, encoding="utf-8")
        code, _, err = run("replay", str(tmp_path / name), "--lang", "en")
        assert "Bad record" in one_line_error(code, err)
    code, _, err = run("replay", str(tmp_path / "missing.json"), "--lang", "ru")
    assert "Не удаётся прочитать" in one_line_error(code, err)
