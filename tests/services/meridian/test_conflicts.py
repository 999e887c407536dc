"""PATCH with If-Match over a real socket, and `conflict_trace()` read in both directions."""

from __future__ import annotations


def _patch(client, pid, note, version=None):
    headers = {} if version is None else {"If-Match": version}
    return client.patch(f"/v2/payments/{pid}", json={"note": note}, headers=headers)


def _dance(client, pid, note):
    """The documented client: send the version read; on 412 refetch and retry once."""
    version = client.get(f"/v2/payments/{pid}").json()["version"]
    reply = _patch(client, pid, note, f'"{version}"')
    if reply.status_code == 412:
        version = client.get(f"/v2/payments/{pid}").json()["version"]
        reply = _patch(client, pid, note, str(version))
    return reply


def test_preconditions(mock, client):
    mock.set_conflict_mode("off")
    assert _patch(client, "pay_0001", "x").status_code == 428
    assert _patch(client, "pay_0001", "x", "abc").json() == {"error": "bad_if_match"}
    assert _patch(client, "pay_0001", "x", "7").json() == {"error": "version_conflict"}
    assert _patch(client, "nope", "x", "1").status_code == 404
    for accepted, version in (('"1"', 2), ('W/"2"', 3), ("3", 4)):
        assert _patch(client, "pay_0001", "x", accepted).json()["version"] == version


def test_the_mode_at_start_is_once_and_the_dance_recovers(mock, client):
    reply = _dance(client, "pay_0000", "first")
    assert (
        reply.status_code == 200
        and reply.json()["note"] == "first"
        and reply.json()["version"] == 3
    )
    trace = mock.conflict_trace()
    assert (
        trace.injected_412s,
        trace.retries_after_412,
        trace.retried_once_with_fresh_version,
    ) == (1, 1, True)
    assert trace.writes_without_if_match == 0 and trace.patches == 2


def test_a_patch_without_if_match_is_counted(mock, client):
    _patch(client, "pay_0000", "blind")
    _dance(client, "pay_0000", "then right")
    assert mock.conflict_trace().writes_without_if_match == 1


def test_a_blind_retry_with_the_stale_version_is_not_a_recovery(mock, client):
    mock.arm_conflict_once()
    assert _patch(client, "pay_0000", "x", "1").status_code == 412
    assert _patch(client, "pay_0000", "x", "1").status_code == 412  # stale version, no refetch
    assert _patch(client, "pay_0000", "x", None).status_code == 428  # then gives up blind
    trace = mock.conflict_trace()
    assert trace.retried_once_with_fresh_version is False and trace.retries_after_412 == 2


def test_always_mode_ends_the_once_window_and_keeps_rows(mock, client):
    mock.arm_conflict_once()
    _dance(client, "pay_0000", "first")
    mock.arm_conflict_second()
    second = _dance(client, "pay_0000", "second")
    assert second.status_code == 412
    assert client.get("/v2/payments/pay_0000").json()["note"] == "first"
    trace = mock.conflict_trace()
    assert (trace.retries_after_412, trace.retried_once_with_fresh_version) == (1, True)
    assert trace.injected_412s == 3
    mock.set_conflict_mode("off")
    assert _dance(client, "pay_0000", "third").status_code == 200
