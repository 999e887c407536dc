"""The sb-7 3D field's instrument: the scene contract recomputed by the grader (`scene`,
the labels' cull and graded pose in `labels`), the page-side GL wrapper and reads
(`_js`), the ``viz`` browser scenario (`scenario`) and what it saw (`view`). The checks of
tiers T, P and E that grade the field read the view back from the browser record by
`view.SCENARIO`."""
