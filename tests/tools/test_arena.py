"""``tapet arena`` (app/tools/bench_cli.py): ``--deals 0`` plays the matches only (issue 21:
it divided by zero deals), and no rate is ever taken over nothing."""

import pytest

from app.tools import bench
from app.tools.cli import main


def test_deals_0_plays_the_matches_only(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["arena", "--game", "belote", "--a", "random", "--b", "random"]
        + ["--matches", "1", "--deals", "0"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "duplicate deals" not in out
    # one match seed, played once per side: 2 matches for two teams
    assert "belote: random vs random, 2 matches (duplicate)" in out


def test_nothing_to_play_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--game", "belote", "--a", "random", "--b", "random", "--deals", "0"])
    assert code == 2
    assert "nothing to play" in capsys.readouterr().err


def test_a_negative_count_is_refused_by_the_parser() -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--a", "random", "--b", "random", "--deals", "-1"])


def test_no_rate_over_nothing() -> None:
    with pytest.raises(ValueError, match="at least 1 deal"):
        bench.duplicate("belote", "random", "random", 0)
    with pytest.raises(ValueError, match="at least 1 match"):
        bench.arena("belote", "random", "random", 0)
