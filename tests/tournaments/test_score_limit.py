"""A match score beyond any real match is refused with a reason, not stored (a 500 on
PostgreSQL's integer column otherwise)."""

import pytest

from app.tournaments import results


@pytest.mark.parametrize("scores", [(1_000_000_000_000, 0), (0, 1_000_001)])
async def test_record_result_refuses_absurd_scores(scores) -> None:
    with pytest.raises(results.Unprocessable, match="at most"):
        await results.record_result(None, 1, 1, None, *scores)  # type: ignore[arg-type]
