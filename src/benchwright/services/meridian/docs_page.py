"""The Meridian API v2 reference served at ``/v2/docs`` and ``/docs`` (our own text).

A `string.Template`: ``$name`` fields are filled in per request by `app.docs`, from
`values` and the request's base URL.
"""

from __future__ import annotations

from benchwright.services.meridian import config

DOCS = """\
# Meridian API v2

Base URL: `$base` · all bodies are JSON (UTF-8) · times are RFC 3339.

Send `Authorization: Bearer $api_key` with every request.

Read this page to the end before you write a client. The API is honest but not
gentle: it rate-limits, expires cursors, sometimes holds a connection open
without answering, rejects unconditional writes and signs what it pushes to you.
A client that follows this page survives all of it.

## Payments

| field | type | meaning |
|---|---|---|
| `id` | string | `pay_…`, stable |
| `amount_minor` | integer | amount in the currency's minor unit |
| `currency` | string | `EUR`, `USD` (2 decimals), `JPY` (0 decimals), `KWD` (3 decimals) |
| `created_at` | string | RFC 3339 in the offset it was recorded in (offsets differ) |
| `settled_at` | string or null | RFC 3339 in UTC (`Z`) |
| `status` | string | `settled`, `pending`, `refunded` or `failed` |
| `version` | integer | starts at 1, increases on every change |
| `note` | string | free text, `""` by default |
| `counterparty` | object | `{"name": string, "country": ISO 3166 alpha-2}` |

Minor units of different currencies are not comparable: never add them up
across currencies. Compare instants, not strings, when ordering by `created_at`.

## Listing: `GET /v2/payments`

Query: `limit` (default 25, maximum 100; out-of-range values are clamped) and
`cursor` (omit it for the first page). Answer `200`:

```json
{"data": [ ... ], "next_cursor": "7b22...", "total": 1234}
```

- Pass `next_cursor` back as `cursor` to get the next page; when it is `null` the
  walk is complete. A page may hold fewer rows than `limit` and still not be the
  last one: only `next_cursor: null` ends the walk.
- Cursors are opaque. Do not build, decode or edit them; an invalid one gets
  `400 bad_cursor`. There are no offset or page parameters.
- The order of the collection is stable but is not time order.
- **Cursors expire.** `410 {"error": "cursor_expired"}` means the cursor you sent
  is dead: restart the walk from the beginning, **without** a cursor. Never send
  an expired cursor again.
- **Rate limits.** `429 {"error": "rate_limited"}` carries `Retry-After`, either in
  delta-seconds (`Retry-After: 2`) or as an HTTP-date
  (`Retry-After: Wed, 01 Apr 2026 10:00:02 GMT`). Support both forms, and do not
  send another request before that time.
- **Slow answers.** Occasionally the API holds a request open without answering.
  Give every request a timeout of at most $client_timeout seconds; when it fires,
  retry the same request (same cursor).
- **Conditional requests.** Every page carries an `ETag`. Send it back in
  `If-None-Match` when you fetch the same page again: `304 Not Modified` (no body)
  means nothing on that page changed. Any change to the collection changes every
  ETag.

## One payment: `GET /v2/payments/{id}`

`200` with the payment, or `404 not_found`.

## Updating: `PATCH /v2/payments/{id}`

Body: any of `note` and `status` (strings). Updates are optimistic-concurrency only:

- Send `If-Match: <version>` (quotes and a `W/` prefix are accepted) with the
  version you last read. Without it: `428 precondition_required`. That is a bug
  in your client, not something to retry.
- `412 version_conflict`: someone changed the payment since you read it. Fetch it
  again, re-apply your change to the fresh copy, and retry **once** with the new
  version. If that fails too, report a conflict to your caller; never write blind.
- `200`: the updated payment, with its new `version`.

## Creating: `POST /v2/payments`

Header `Idempotency-Key: <unique per intended payment>` (missing:
`400 idempotency_key_required`). Body:

```json
{"amount": {"value_minor": 129900, "currency": "EUR"},
 "counterparty": {"name": "Alpha GmbH", "country": "DE"},
 "occurred_at": "2026-04-01T09:30:00+02:00"}
```

- `201`: the payment, `status: "pending"`.
- `409 {"error": "duplicate", "payment_id": "..."}`: this key already created
  `payment_id`. This is the success path of a retry: treat it as created.
- Retry a create that timed out with the **same** key. Never resubmit the same
  payment under a fresh key; that creates it twice.
- Validation errors, `400`, checked in this order: `invalid_amount` (not a
  positive integer), `unsupported_currency`, `amount_over_limit` (above
  $amount_limit minor units), `invalid_counterparty` (empty name, or country not
  two capital letters), `bad_format` (`occurred_at` is not RFC 3339).
  A validation error will fail again however often it is sent.

## Batch create: `POST /v2/payments/batch`

`{"items": [ ... ]}` with 1 to $batch_max items (`400 no_items`, `400 too_many_items`),
each a create body plus its own `idempotency_key`. Items are processed
independently, in order; the answer is always `200`:

```json
{"results": [{"index": 0, "status": "created", "id": "pay_new_0001"},
             {"index": 1, "status": "error",
              "error": {"code": "amount_over_limit", "message": "..."}}],
 "succeeded": 1, "failed": 1}
```

A replayed key returns its original `id` with `"duplicate": true`. Partial
failure is normal: keep the items that succeeded, report the ones that failed,
and do not resend a failed item (it will fail again).

## Webhooks

Register one endpoint: `POST /v2/webhooks {"url": "http://..."}`.

1. Before answering, Meridian POSTs an **unsigned** handshake to your URL:
   `{"type": "webhook.verify", "challenge": "<hex>"}`. Answer `200` with
   `{"challenge": "<the same hex>"}` within $handshake_timeout seconds, or the
   registration fails with `400 verification_failed` (`400 bad_url` if the URL
   is not http(s)).
2. The answer is `200 {"id": "wh_...", "secret": "whsec_..."}`. Registering the
   same URL again is safe and returns the same secret. There is one endpoint per
   account: the last registration wins, so register again after every start.

Deliveries are `POST`s with a JSON body

```json
{"id": "evt_0001", "type": "payment.updated", "created_at": "...Z", "data": {<payment>}}
```

and the header `Meridian-Signature: t=<unix seconds>,v1=<hex>`, where `v1` is
HMAC-SHA256 keyed with your secret over the bytes `"<t>."` followed by the
**raw** request body. Verify it before you parse anything, compare in constant
time, and answer `401` if it does not match: forged deliveries happen.
Treat every delivery as untrusted and possibly repeated or late: the same event
may arrive twice (ignore an `id` you have seen) and an older snapshot may arrive
after a newer one (ignore `data.version` not above the one you hold). Answer
within 3 seconds and never call the API from inside the handler.

## Errors

Every error is `{"error": "<code>"}` (plus `payment_id` on a duplicate create).
Unknown paths answer `404 not_found`.
"""


def values(timing: config.Timing) -> dict[str, str]:
    """The page's per-mock fields besides the base URL and the key."""
    return {
        "amount_limit": f"{config.AMOUNT_LIMIT_MINOR:,}",
        "batch_max": str(config.BATCH_MAX_ITEMS),
        "client_timeout": f"{timing.documented_client_timeout:g}",
        "handshake_timeout": f"{timing.handshake_timeout:g}",
    }
