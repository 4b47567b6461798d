"""A request's work and its answer are bounded whatever its shape (issue 18, defect 2).

A 400 KB body of 100,000 empty sides once got a 9.4 MB problem document, one error per side, and
held a worker for seconds. Now the body's values and objects are counted on its bytes (``bytes.count``)
before the schema reads it, a body past the limits is refused as a whole, and a problem lists at
most :data:`MAX_ERRORS_LISTED` errors with the count of the rest. "Cheap" is shown by counting
the work (marshmallow field deserializations), not by a timing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import marshmallow
import pytest
from flask.testing import FlaskClient

from handfoot.server import parsing
from handfoot.server.problems import MAX_ERRORS_LISTED, make_problem
from tests.helpers.games import SEED_ROUND_1, create_game

EMPTY_SIDES = json.dumps({"preset": "pagat", "teams": [{}] * 100_000}).encode()


@pytest.fixture
def field_loads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts marshmallow field deserializations: the work validation does, item by item."""
    count = [0]
    original = marshmallow.fields.Field.deserialize

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(marshmallow.fields.Field, "deserialize", counting)
    yield count


def _paths(flask_client: FlaskClient) -> list[str]:
    game_id = create_game(flask_client)["id"]
    return ["/v1/rounds/score", "/v1/rounds/compare", "/v1/games", f"/v1/games/{game_id}/rounds"]


@pytest.mark.parametrize("key", [None, '"k"'])
def test_100000_empty_sides_are_refused_before_validation_walks_them(
        flask_client: FlaskClient, field_loads: list[int], key: str | None) -> None:
    paths = _paths(flask_client)
    headers = {"Content-Type": "application/json", **({"Idempotency-Key": key} if key else {})}
    for path in paths:
        field_loads[0] = 0
        response = flask_client.post(path, data=EMPTY_SIDES, headers=headers)
        assert response.status_code == 413, (path, response.status_code)
        problem = response.get_json()
        assert problem["type"].endswith("/body-too-large")
        assert [e["code"] for e in problem["errors"]] == ["body_too_complex"]
        assert len(response.get_data()) < 2_000
        assert field_loads[0] == 0, path  # the schema never saw it


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.parametrize(("body", "what"), [
    (_json([0] * parsing.MAX_BODY_VALUES), "values"),
    (_json([[]] * (parsing.MAX_BODY_VALUES // 2)), "values"),
    (_json([{}] * (parsing.MAX_BODY_OBJECTS + 1)), "objects"),
])
def test_each_limit_is_refused_by_name(body: bytes, what: str) -> None:
    """Each limit is counted on the bytes and refused naming itself: values (commas, lists and
    objects) and objects."""
    with pytest.raises(parsing.BodyTooComplexError, match=what):
        parsing.check_counts(body)


def test_every_real_request_fits() -> None:
    """A body at each limit is taken: the counts are exact for bodies without ``{[,`` in strings."""
    parsing.check_counts(_json([0] * (parsing.MAX_BODY_VALUES - 1)))
    parsing.check_counts(_json([{}] * parsing.MAX_BODY_OBJECTS))
    parsing.check_counts(_json({"preset": "pagat", "teams": [{"name": "a, b {c} [d]"}]}))


def test_deep_nesting_within_the_counts_is_not_walked(flask_client: FlaskClient, field_loads: list[int]) -> None:
    """Nesting has no limit of its own: a deep value where a side belongs is named as a wrong type
    without being walked (the schema reads only as deep as it is declared)."""
    deep = "[" * 500 + "]" * 500
    response = flask_client.post("/v1/rounds/score", data=f'{{"preset": "pagat", "teams": [{deep}]}}',
                                 content_type="application/json")
    assert response.status_code == 422
    assert [e["pointer"] for e in response.get_json()["errors"]] == ["/teams/0"]
    assert field_loads[0] <= 5


def test_a_problem_lists_the_first_errors_and_counts_the_rest(
    flask_client: FlaskClient, field_loads: list[int]
) -> None:
    """Within the shape limits, 900 bad sides: 100 errors listed, the rest counted."""
    sides = [{"name": 5}] * 900
    response = flask_client.post("/v1/rounds/score", json={"preset": "pagat", "teams": sides})
    assert response.status_code == 422
    problem = response.get_json()
    assert len(problem["errors"]) == MAX_ERRORS_LISTED
    assert problem["errors_not_listed"] == problem["errors_found"] - MAX_ERRORS_LISTED > 0
    assert problem["errors"][0]["pointer"].startswith("/teams/0/")
    assert field_loads[0] <= 20 * len(sides)  # linear in the sides, at most a few fields each


def test_a_short_error_list_is_whole() -> None:
    errors = [{"pointer": f"/x/{i}", "code": "required", "detail": "d"} for i in range(3)]
    problem = make_problem(422, errors=errors)
    assert problem["errors"] == errors and "errors_not_listed" not in problem


def test_a_valid_round_is_unchanged(flask_client: FlaskClient) -> None:
    response = flask_client.post("/v1/rounds/score", json={"preset": "pagat", "teams": SEED_ROUND_1})
    assert response.status_code == 200 and response.get_json()["teams"][0]["total"] == 3740
