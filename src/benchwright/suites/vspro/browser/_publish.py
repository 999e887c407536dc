"""Which screenshots a scorecard publishes to the board: the one rule.

The board takes at most five PNGs, each at most 1.5 MB and 3.5 MB together (methodology
§06; `benchwright.board._png`). A card keeps up to nine, one per view a row relies on.
The five a reader of the board should see are the product as its user meets it, in this
order: the page at 1280 px, the 3D chart, the page at a 375 px phone, the error state
and the empty state. The others (after a sync, the note conflict, the chart after a
drag, the no-WebGL fallback) fill in, in that order, for one that was not taken or does
not fit the limits; any other name comes last, by name. A screenshot over 1.5 MB, or one
that would bring the total past 3.5 MB, is passed over, never cut.
"""

from __future__ import annotations

from benchwright.suites.kit.screenshots import PreferredShots

PREFERRED = (
    "load-1280",
    "viz-before-drag",
    "load-375",
    "error",
    "empty",
    "sync-after",
    "note-conflict",
    "viz-after-drag",
    "viz-fallback",
)
"""Screenshot names (file stems) in the order the board receives them."""
RULE = PreferredShots(PREFERRED)
ranked = RULE.ranked
publishable = RULE.publishable
