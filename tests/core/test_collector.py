"""The serving process's collector settings (app/core/collector.py), checked in a child
process: freezing the test process's objects would keep every test's leftovers."""

from __future__ import annotations

import subprocess
import sys

from app.core import collector


def test_tune_freezes_start_up_and_widens_the_thresholds() -> None:
    """After start-up (the app imported), its objects are frozen: never scanned again."""
    code = (
        "import gc, app.main; from app.core import collector; collector.tune(); "
        "print(*gc.get_threshold(), gc.get_freeze_count() > 50_000)"  # the app's modules
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [
        str(collector.GEN0),
        str(collector.GEN1),
        str(collector.GEN2),
        "True",
    ]


def test_without_freeze_only_the_thresholds_change() -> None:
    """``tapet load``'s client: the thresholds of app/core/collector.py, nothing frozen."""
    code = (
        "import gc; from app.core import collector; collector.tune(freeze=False); "
        "print(*gc.get_threshold(), gc.get_freeze_count())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["5000", "20", "100", "0"]
