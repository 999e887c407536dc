"""vspro (VendorSync Pro): the benchwright reference build of the sb-6 task.

Python standard library only. `meridian` talks to the vendor, `store` keeps the
local SQLite copy, `api` serves the JSON API and the page, `__main__` boots it.
"""

STATUSES = ("settled", "pending", "refunded", "failed")
"""The frozen status vocabulary, in the order the buckets (and the 3D chart) use."""

CURRENCIES = ("EUR", "JPY", "KWD", "USD")
"""Known currencies, sorted by code. Minor-unit exponents: EUR 2, JPY 0, KWD 3, USD 2."""

TIMEZONE = "Europe/Berlin"
"""The finance team's calendar: buckets are Berlin days of each payment's instant."""
