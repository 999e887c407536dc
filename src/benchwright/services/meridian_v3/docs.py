"""``GET /v3/docs``: the v3 contract as the entrant reads it while building, in our words.

A `string.Template` over ``base`` (this server's URL) and the timing values an entrant
must honour; nothing in it names a run's seeded values.
"""

from __future__ import annotations

DOCS = """\
# Meridian Payments API v3

Base URL: `$base`. Every path below hangs off it. This page is the whole contract:
read all of it before you write the sync. Pages are fixed, cursors expire, errors carry
`Retry-After`, validators come with a generation rule, webhooks are signed and arrive
late, twice, out of order or forged, and refunds come as two-part transactions.

## 1. Ground rules

- Send `Authorization: Bearer <your API key>` on every request (this page is the only
  exception). A missing or wrong key gets `401 {"error": "unauthorized"}`.
- Bodies are JSON in and out. Errors are `{"error": "<code>"}`.
- Timestamps are RFC 3339 and `created_at` may be written in ANY UTC offset: compare and
  order instants, never strings. The day a payment belongs to is the Europe/Berlin
  calendar date of its instant.
- Money is an integer count of minor units. Exponents: EUR 2, USD 2, JPY 0, KWD 3.
  Amounts never change once created; only `status`, `note` and `version` move.
- Put a timeout on every call (10 s). A call that hangs or drops is normal here: retry
  the idempotent ones.

## 2. A payment

```json
{"id": "pay_00042", "amount_minor": 129900, "currency": "EUR",
 "created_at": "2026-04-01T12:34:56+02:00", "settled_at": "2026-04-01T15:02:11Z",
 "status": "settled", "version": 3, "note": "",
 "counterparty": {"name": "Aurora Freight", "country": "DE"}}
```

- `status` is one of `settled`, `pending`, `refunded`, `failed`.
- `settled_at` is set for payments that were settled when the collection was loaded and
  `null` for every other one; a later status change never fills it in.
- `version` is 1 at creation and grows by exactly 1 with each committed change. It is
  your ordering truth: apply a change only if its version is above the one you hold.

## 3. The list: `GET /v3/payments`

Pages hold exactly 64 payments (the server decides; there is no `limit`, and one you
send is ignored and logged). Follow `next_cursor` until it is `null`:

```
GET /v3/payments                 the first page
GET /v3/payments?cursor=<next>   every later page
-> {"data": [...], "next_cursor": "<opaque>" or null, "total": <int>}
```

- Cursors are opaque strings: pass them back untouched.
- `total` is the size of the collection when your walk began; the walk ends there.
- The walk is NOT a snapshot. Changes committed while you walk are served as they are
  now, on pages you already have and on pages still ahead; a payment created mid-walk
  may or may not show up. Webhooks (section 8) are the authority for anything that
  changes while you walk: never let an older version from a page overwrite a newer one.
- Every 200 carries an `ETag` (per page) and `X-Collection-Generation`.

### Validators and the generation rule

Keep each page's `ETag` and the last `X-Collection-Generation` you saw. On later syncs
send `If-None-Match: <that page's ETag>`.

- `304` with the SAME generation as yours: your copy of the page is current.
- `304` with a DIFFERENT generation: treat it as a miss. Forget that validator and ask
  for the page again WITHOUT `If-None-Match`, once, then carry on with what you get.
  Asking again with the same validator gets the same 304 forever (more than 3 identical
  conditional requests in a row is a loop), and keeping your old copy as if it were
  current is the worst answer of all.

### Faults the list will throw at you

- The connection can close before any byte of the answer. Ask again for the SAME
  cursor: that costs one request. Do not start the walk over.
- `500 {"error": "internal_error"}` with `Retry-After: <seconds>`: wait at least that
  long, ask again once for the same cursor, and go on from there. Restarting the walk
  from the first page is wrong.
- `410 {"error": "cursor_expired"}`: the collection was rebuilt under your cursor.
  Start the walk again from the first page. This is routine.
- `400 {"error": "bad_cursor"}`: you sent something that is not a cursor we gave you.
  Retrying will not help; it is a bug.

## 4. One payment: `GET /v3/payments/<id>`

The payment, or `404 {"error": "not_found"}`.

## 5. Changing the note: `PATCH /v3/payments/<id>`

Only `note` can be written, and only with `If-Match` holding the version you last read
(`"3"` or `3`):

```
PATCH /v3/payments/pay_00042
If-Match: "3"
{"note": "call the counterparty"}
```

- No `If-Match`: `428 {"error": "precondition_required"}`. Your client has a bug.
- `note` must be a string of 1 to 280 characters, else `400 {"error": "invalid_note"}`.
- Wrong version: `412 {"error": "version_conflict"}`. Read the payment again, apply your
  note to the fresh version and retry once with the new `If-Match`.
- `200` returns the payment with its new version: store it.

## 6. Creating a payment: `POST /v3/payments`

```
POST /v3/payments
Idempotency-Key: <a key you generate and STORE before sending>
{"amount_minor": 4500, "currency": "EUR", "note": "...",
 "counterparty": {"name": "Smoke Co", "country": "DE"}}
```

- The key is required: without it, `400 {"error": "idempotency_key_required"}`.
- The first request with a key creates the payment: `201` with it. Every later request
  with that key, whatever its body, returns `200` with that SAME payment. Retrying with
  a new key creates a second, real payment.
- We may hold the answer open for several seconds after the payment is committed. A
  create that timed out or was cut off is exactly what the stored key is for.
- We value-date creates: `created_at` is set by us to an instant inside the span the
  collection already covers, on a day that has room. It is not "now".
- `400` codes: `invalid_amount` (a positive integer is required),
  `unsupported_currency` (EUR, USD, JPY, KWD), `invalid_counterparty` (`name` is required
  and `country` is two capital letters), `invalid_note` (a string of at most 280).
- A create is also announced to your webhook as `payment.created`.

## 7. Reversals: `GET /v3/reversals`

```json
{"data": [{"id": "rev_00003", "payment_id": "pay_00042", "amount_minor": 129900,
           "currency": "EUR", "created_at": "..."}], "total": 1}
```

Every refunded payment has exactly one reversal, for its whole amount, in its currency.
A refund is one atomic change: the payment turning `refunded` and its reversal appear
together (see transaction groups below).

## 8. Webhooks

### Registering: `POST /v3/webhooks`

```
{"url": "http://127.0.0.1:<port>/<your path>"}
```

Before we accept a URL we POST an UNSIGNED challenge to it,
`{"type": "webhook.verify", "challenge": "<hex>"}`, and expect
`200 {"challenge": "<the same hex>"}` within 10 seconds, so listen first and register
after. You get `{"id": "wh_...", "secret": "whsec_..."}`. Registering the same URL again
(after a restart, say) returns the same id and secret.

### Deliveries

Each event is POSTed to your URL with `Meridian-Signature: t=<unix seconds>,v1=<hex>`,
where `v1` is the hex HMAC-SHA256, keyed with your secret, of the bytes `<t>.` followed
by the raw request body. Check it over the raw bytes, before parsing. A delivery that
does not verify is forged: answer 401, count it, change nothing.

```json
{"id": "evt_00001", "type": "payment.created | payment.updated | reversal.created",
 "created_at": "...", "txn": null or {"id": "txn_0001", "part": 1, "of": 2},
 "data": <the payment, or the reversal>}
```

- Delivery is at least once: an event id can come again, byte for byte. Apply it once,
  count the repeat.
- Order is not guaranteed: version 5 can arrive before version 4. Anything at or below
  the version you hold is stale: ignore it and count it.
- Events sharing a `txn.id` are one atomic group of `of` parts (a refund: the payment's
  `payment.updated` to `refunded` and the `reversal.created`), parts in any order. Hold
  the parts until the group is complete, then apply them in one local transaction:
  nothing reading your store may ever see half a group.
- Answer within 3 seconds with a 2xx once the event is safely stored. We give up on an
  attempt after 10 seconds and try an unacknowledged event again later.

## 9. Operations

- We sometimes refuse or drop connections for a while (maintenance, restarts). Keep
  serving what you have, keep retrying on your own, recover without anyone's help.
- Nothing about the collection is fixed except its shape: dates, counts and values
  differ from one environment to the next. The page size (64) and the page count at
  load (12,288 payments, 192 pages) are fixed.
"""
