"""``benchwright view`` in headless Chromium: the runs list (filter, sort), a trial with its
prompt, diff and check output, a task's trials side by side, a scorecard with its
screenshots decoded and its vendor trace filtered, compare views, and markup written by a
run or an app shown as text with no dialog firing."""

from __future__ import annotations

from viewer.conftest import XSS, thumbs_loaded


def test_the_runs_list_shows_each_run_and_filters_and_sorts(viewer, runs, page) -> None:
    page.goto(viewer + "/")
    rows = page.locator("#runs tbody tr")
    assert rows.count() == 3  # oracle, nop, the hostile copy
    oracle = page.locator(f'tr[data-run="{runs["oracle"]}"]')
    assert oracle.locator("td").nth(1).inner_text() == "turnbench"
    assert oracle.locator("td").nth(5).inner_text() == "6/6"
    assert page.locator(f'tr[data-run="{runs["nop"]}"] td').nth(5).inner_text() == "0/6"
    page.locator('[data-filter-for="runs"]').fill("nop")
    assert page.locator("#runs tbody tr:not([hidden])").count() == 1
    assert page.locator("#runs tbody tr:not([hidden])").get_attribute("data-run") == runs["nop"]
    page.locator('[data-filter-for="runs"]').fill("")
    page.locator("#runs th", has_text="correctness").click()
    first = page.locator("#runs tbody tr").first.get_attribute("data-run")
    page.locator("#runs th", has_text="correctness").click()
    assert first == runs["nop"]
    assert page.locator("#runs tbody tr").first.get_attribute("data-run") != runs["nop"]


def test_a_trial_shows_its_prompt_diff_checks_with_output(viewer, runs, page) -> None:
    page.goto(viewer + "/")
    page.get_by_role("link", name=runs["oracle"]).click()
    page.locator('tr[data-task="fix-01"] a', has_text="#1").click()
    page.wait_for_url("**/trials/fix-01/1")
    assert "negative amounts" in page.locator("pre.prompt").inner_text()
    diff = page.locator("pre.diff")
    assert diff.is_visible()
    assert "diff --git a/ledger/money.py b/ledger/money.py" in diff.inner_text()
    added = page.locator("pre.diff .d-add").all_inner_texts()
    assert any("abs(cents)" in line for line in added), added
    assert page.locator("pre.diff .d-del").count() >= 1
    check = page.locator('tr.check[data-check="failing-test-passes"]')
    assert "PASS" in check.inner_text()
    check.locator("summary", has_text="full output").click()
    assert "1 passed" in check.locator("details pre").inner_text()


def test_a_task_without_a_change_says_so_and_trials_sit_side_by_side(viewer, runs, page) -> None:
    page.goto(viewer + f"/runs/{runs['nop']}/tasks/fix-02")
    assert page.locator(".side section.trial").count() == 1
    assert "FAIL" in page.locator(".side tr.check").first.inner_text()
    assert page.locator(".side .phase").inner_text().count("The phase changed no file.") == 1


def test_a_scorecard_shows_its_screenshots_and_filters_its_trace(viewer, page) -> None:
    page.goto(viewer + "/cards/good")
    thumbs = page.locator("img.thumb")
    assert sorted(thumbs.evaluate_all("imgs => imgs.map(i => i.alt)")) == ["load-1280", "load-375"]
    thumbs_loaded(page)
    assert thumbs.evaluate_all("imgs => imgs.map(i => i.naturalWidth)") == [64, 24]
    page.locator("details.shot summary").first.click()  # enlarge
    assert page.locator("details.shot[open] img.full").is_visible()
    assert "server_runs" in page.locator("table.factors").inner_text()
    # the log and the trace are folded behind a summary linking to the whole file
    assert not page.locator("pre.app-log").is_visible()
    log = page.locator("details.evidence-file", has=page.locator("pre.app-log"))
    assert log.locator("summary a").get_attribute("href") == "/cards/good/evidence/app_log"
    log.locator("summary").click(position={"x": 4, "y": 4})  # beside the link
    assert "vspro: serving" in page.locator("pre.app-log").inner_text()
    folded = page.locator("details.trace-file")
    assert folded.locator("summary a").get_attribute("href") == "/cards/good/evidence/vendor_trace"
    assert not page.locator("#trace-good").is_visible()
    folded.locator("summary").click(position={"x": 4, "y": 4})
    trace = page.locator("#trace-good tbody tr:not([hidden])")
    assert trace.count() == 3
    page.select_option('select[data-filter-for="trace-good"][data-col="2"]', "GET")
    assert trace.count() == 2
    page.select_option('select[data-filter-for="trace-good"][data-col="4"]', "404")
    assert trace.count() == 1 and "/v2/payments/x" in trace.inner_text()
    assert "sync1" in trace.inner_text()  # the phase marker before it


def test_compare_runs_names_the_newly_failing_tasks(viewer, runs, page) -> None:
    page.goto(viewer + "/")
    page.select_option('select[name="a"]', f"run:{runs['oracle']}")
    page.select_option('select[name="b"]', f"run:{runs['nop']}")
    page.get_by_role("button", name="compare").click()
    page.wait_for_url("**/compare?**")
    row = page.locator('tr.task-change[data-task="fix-01"]')
    assert "newly failing" in row.inner_text()
    assert "failing-test-passes: 1.00 → 0.00 (-1.00)" in row.inner_text()
    totals = page.locator("table.compare-totals").inner_text()
    assert "correctness pass rate" in totals and "-1.0000" in totals
    # the task's name and each side's verdict lead to its trials in that run
    assert row.locator("a.side-a").get_attribute("href") == f"/runs/{runs['oracle']}/tasks/fix-01"
    row.get_by_role("link", name="fix-01").click()
    page.wait_for_url(f"**/runs/{runs['nop']}/tasks/fix-01")
    assert page.locator(".side section.trial").count() == 1


def test_the_run_page_leads_with_pass_rates_and_says_why_each_trial_failed(
    viewer, runs, page
) -> None:
    """The reason is the terminal's own line (`failure_reason`), per trial, in the list."""
    page.goto(viewer + f"/runs/{runs['nop']}")
    lead = page.locator(".run-headline")
    assert (
        lead.locator("p.lead").inner_text()
        == "correctness: 0/6 passed (0.0%), 0 errored, 6 task(s)"
    )
    assert lead.locator("table.classes tbody tr").first.inner_text().split() == [
        "fix", "correctness", "6", "6", "0", "0", "0.00", "0.00", "0.00"
    ]  # fmt: skip
    # it comes before the tasks, the run's metadata after them
    order = page.evaluate(
        "sel => [...document.querySelectorAll(sel)].map(e => e.id || e.className)",
        f".run-headline, #tasks-{runs['nop']}, dl.meta",
    )
    assert order == ["run-headline", f"tasks-{runs['nop']}", "meta"], order
    reason = page.locator('tr[data-task="fix-01"] .reason')
    text = reason.inner_text()
    assert text.startswith("failing-test-passes: exit 1: 1 failed"), text
    assert reason.get_attribute("title") == text
    page.goto(viewer + f"/runs/{runs['oracle']}")
    assert page.locator(".reason").count() == 0  # every trial passed: no reason shown
    assert "6/6 passed (100.0%)" in page.locator(".run-headline p.lead").inner_text()


def test_a_failed_trial_shows_its_reason_then_its_checks_before_the_timings(
    viewer, runs, page
) -> None:
    page.goto(viewer + f"/runs/{runs['nop']}/trials/fix-01/1")
    assert page.locator("main > .reason").inner_text().startswith("failing-test-passes: exit 1")
    headings = page.locator("main h3").all_inner_texts()
    assert headings.index("Checks (4)") < headings.index("Timings"), headings
    tiers = page.locator("tr.check td:nth-child(2)").all_inner_texts()
    assert tiers and set(tiers) == {"-"}, tiers  # never "None"
    assert "None" not in page.locator("main").inner_text()


def test_compare_scorecards_shows_the_score_delta_per_row(viewer, page) -> None:
    page.goto(viewer + "/compare?a=card:good&b=card:worse")
    row = page.locator('tr.row-change[data-check="t_camera"]')
    cells = row.locator("td").all_inner_texts()
    assert cells[3:6] == ["1.0000", "0.6000", "-0.4000"], cells
    assert page.locator('tr.row-change[data-check="server_runs"] td.delta').inner_text() == "0.0000"


def test_markup_from_a_run_or_an_app_is_shown_as_text(viewer, page) -> None:
    pages = ["/", "/runs/evil-run", "/runs/evil-run/trials/fix-01/1", "/cards/evil"]
    for path in pages:
        page.goto(viewer + path)
        assert page.locator("script:not([src])").count() == 0, path
        assert page.locator("img[src=x]").count() == 0, path
    page.goto(viewer + "/runs/evil-run/trials/fix-01/1")
    assert page.locator("pre.prompt").inner_text() == XSS
    assert XSS in page.locator("td.detail").first.inner_text()
    assert page.locator("pre.answer").inner_text() == XSS
    page.goto(viewer + "/cards/evil")
    assert XSS in page.locator("pre.app-log").text_content()
    assert page.dialogs == []
