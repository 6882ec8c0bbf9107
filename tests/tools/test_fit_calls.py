"""``tapet fit-calls`` (app/tools/bench_cli.py): the learned calls' weights, printed."""

import re

import pytest

from app.bots import botifarra_calls, call_model
from app.tools.cli import main


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", text)]


def test_the_take_s_weights_are_printed_ready_to_paste(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["fit-calls", "--game", "bolot", "--deals", "20", "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0
    calls = len(list(call_model.labels("bolot", 20, 1)))
    assert out.startswith(f"# {calls:,} calls of 20 deals, seeds [1]")
    body = out.split('"bolot": (', 1)[1]
    assert len(_numbers(body)) == call_model.SIZE


def test_botifarra_s_models_are_printed_one_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["fit-calls", "--game", "botifarra", "--deals", "6", "--seed", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    names = [line.split('"')[1] for line in lines[1:]]
    fitted = botifarra_calls.fit(list(botifarra_calls.labels(6, 2)))
    assert names == sorted(fitted)
    for line, name in zip(lines[1:], names, strict=True):
        assert _numbers(line.split("(", 1)[1]) == pytest.approx(fitted[name])


def test_no_deals_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit-calls", "--game", "bolot", "--deals", "0"]) == 2
    assert "at least 1 deal" in capsys.readouterr().err
