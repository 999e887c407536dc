"""The Meridian API v1 reference served at ``/v1/docs`` and ``/docs`` (our own text).

Written from docs/facts/meridian-v1.md, never from the public page. A
`string.Template`: ``$name`` fields are filled in per request from the same values
the mock serves by (`values`), so the page cannot disagree with the API.
"""

from __future__ import annotations

from benchwright.services.meridian import paging
from benchwright.services.meridian.config import Timing

DOCS = """\
# Meridian API v1

Base URL: `$base` · JSON in and out (UTF-8) · timestamps are RFC 3339.

Authenticate every call with the header `Authorization: Bearer $api_key`.

This page is short, and every line of it matters: the API paginates with cursors,
limits your rate, expires cursors and replays creates. Clients written from this
page get all of it right; clients written from habit do not.

## The payment

| field | type | what it holds |
|---|---|---|
| `id` | string | `pay_…`, never changes |
| `amount_minor` | integer | the amount in minor units: `129900` in `EUR` is 1,299.00 € |
| `currency` | string | ISO 4217 code |
| `created_at` | string | RFC 3339, in the local offset of the region that took the payment |
| `status` | string | `settled`, `pending` or `refunded` |

Amounts are always integers: never a float, never a string. One page can mix
`+02:00`, `-05:00` and `Z`, so two `created_at` strings compare correctly only
once both are turned into instants; sort on the instant.

## List payments: `GET /v1/payments`

Parameters: `limit` (rows per page, default $default_limit, at most $max_limit) and
`cursor` (leave it out for the first page). A `200` looks like

```json
{"data": [{"id": "pay_0001", "...": "..."}], "next_cursor": "7b226f...", "total": 310}
```

with an `ETag` header.

- Send `next_cursor` as `cursor` for the following page. The walk is over when
  `next_cursor` is `null`, and only then: a page may hold fewer rows than you
  asked for anywhere in the collection.
- `total` is the size of the whole collection, the same number on every page. It
  is neither the length of `data` nor a page count. Report it; do not stop on it.
- Cursors are opaque strings: do not build or edit them (`400 bad_cursor`).
- The collection is not delivered in time order.

### When the API pushes back

- `429 {"error": "rate_limited"}` comes with `Retry-After`, in one of the two forms
  HTTP allows: a number of seconds (`Retry-After: $retry_secs`) or a date
  (`Retry-After: Sun, 01 Mar 2026 12:00:05 GMT`). Handle both: wait until
  then, and send the same request again. A `429` is never a reason to give up or
  to report an error to your caller.
- `410 {"error": "cursor_expired"}`: cursors live a short time and die when the
  collection changes. Start the walk again from the first page, without a cursor,
  and rebuild the list. The dead cursor never works again, and a `410` is not the
  end of the data.

### Asking only for what changed

Send a page's `ETag` back as `If-None-Match` when you fetch that page again. If
the page is unchanged the answer is `304 Not Modified` with no body, and it does
not count against your rate. Downloading an unchanged collection on every sync is
how most clients run out of quota.

## Create a payment: `POST /v1/payments`

Body `{"amount_minor": 4500, "currency": "EUR"}`, and the header
`Idempotency-Key: <one value per payment you mean to make>` (without it:
`400 idempotency_key_required`).

- `201`: the new payment, `status: "pending"`.
- `409 {"error": "duplicate", "payment_id": "pay_…"}`: this key has been used
  before, and `payment_id` is the payment it made. For a retry this is success:
  the payment exists exactly once; use that id.
- When a create times out, send it again with the **same** key. A new key for the
  same payment makes a second payment.

## Errors

Errors are `{"error": "<code>"}` (a duplicate also carries `payment_id`). Unknown
paths answer `404 not_found`.
"""


def values(timing: Timing) -> dict[str, str]:
    """The page's per-mock fields besides the base URL and the key."""
    return {
        "default_limit": str(paging.DEFAULT_LIMIT),
        "max_limit": str(paging.MAX_LIMIT),
        "retry_secs": timing.retry_header(),
    }
