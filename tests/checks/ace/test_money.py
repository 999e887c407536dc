"""M1-M4 over real Java, Kotlin and SQL files, with the comment stripper they rely on."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchwright.checks.ace import money
from benchwright.checks.ace._env import AceEnv
from benchwright.checks.ace._source import strip_comments
from benchwright.model import Status

from ._offline_builders import NO_ENGINE, score, write

MAIN = "account-service/src/main/java/app"

ACCOUNT = """package app;

import java.math.BigDecimal;
import java.util.UUID;

public class Account {
    private UUID accountId;
    private BigDecimal availableBalance = BigDecimal.ZERO; // never a double price

    public BigDecimal getAvailableBalance() {
        return availableBalance;
    }

    public boolean sameBalance(BigDecimal other) {
        return availableBalance.compareTo(other) == 0;
    }
}
"""

FILL = """package app;

import java.math.BigDecimal;
import java.time.Instant;

public record Fill(String symbol, Side side, BigDecimal quantity, Instant executedAt) {}
"""

HOLDINGS = """package app;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class HoldingsService {
    private final List<Fill> fills;

    public HoldingsService(List<Fill> fills) {
        this.fills = fills;
    }

    public Map<String, BigDecimal> holdingsAt(Instant asOf) {
        Map<String, BigDecimal> held = new HashMap<>();
        for (Fill fill : fills) {
            if (!fill.executedAt().isBefore(asOf)) {
                continue;
            }
            BigDecimal quantity = fill.quantity();
            if (fill.side() == Side.SELL) {
                quantity = quantity.negate();
            }
            held.merge(fill.symbol(), quantity, BigDecimal::add);
        }
        return held;
    }
}
"""

MIGRATION = """-- an earlier draft had: balance DOUBLE PRECISION
CREATE TABLE account (
    account_id UUID PRIMARY KEY,
    available_balance NUMERIC(19, 4) NOT NULL CHECK (available_balance >= 0)
);
"""


def good() -> dict[str, str]:
    return {
        f"{MAIN}/Account.java": ACCOUNT,
        f"{MAIN}/Fill.java": FILL,
        f"{MAIN}/HoldingsService.java": HOLDINGS,
        f"{MAIN}/Side.java": "package app;\n\npublic enum Side { BUY, SELL }\n",
        "account-service/src/main/resources/db/migration/V1__accounts.sql": MIGRATION,
    }


def java(body: str, name: str = "Thing", imports: str = "") -> dict[str, str]:
    return {f"{MAIN}/{name}.java": f"package app;\n{imports}\npublic class {name} {{\n{body}\n}}\n"}


def test_every_id_passes_money_safe_code(tmp_path: Path) -> None:
    results = money.run(AceEnv(write(tmp_path, good()), NO_ENGINE), sorted(money.IDS))
    assert {r.status for r in results.values()} == {Status.PASS}, results
    assert results["M2"].detail == "3 of 3 money-handling file(s) import java.math.BigDecimal"
    assert results["M4"].detail == (
        "1 point-in-time method(s) subtract sells: "
        f"{MAIN}/HoldingsService.java:16 holdingsAt: .negate()"
    )


def test_run_answers_only_the_wanted_ids_it_owns(tmp_path: Path) -> None:
    env = AceEnv(write(tmp_path, good()), NO_ENGINE)
    assert set(money.run(env, ["M3", "S1", "B3"])) == {"M3"}


def test_nothing_under_src_main_fails_m1_to_m3_and_leaves_m4_not_attempted(tmp_path: Path) -> None:
    write(tmp_path, {"src/test/java/app/PriceTest.java": "class PriceTest { double price; }\n"})
    results = money.run(AceEnv(tmp_path, NO_ENGINE), sorted(money.IDS))
    assert results["M1"].status is Status.FAIL
    assert results["M1"].detail == "no java/kt/sql source under src/main to inspect"
    assert results["M2"].detail == "no java/kt source under src/main to inspect"
    assert results["M4"].status is Status.NOT_ATTEMPTED
    assert results["M4"].detail == "no point-in-time method in src/main to inspect"


# M1 ------------------------------------------------------------------------------------


def test_m1_a_double_price_in_a_comment_is_not_a_declaration(tmp_path: Path) -> None:
    write(
        tmp_path,
        java('    // double price = 1.0;\n    /* float cost; */\n    String s = "double fee";'),
    )
    assert score(money, tmp_path, "M1").status is Status.PASS
    write(tmp_path, java("    private double price;"))
    result = score(money, tmp_path, "M1")
    assert result.status is Status.FAIL
    assert result.detail == f"float money: {MAIN}/Thing.java:4 declares price as double"


@pytest.mark.parametrize(
    ("rel", "source", "finding"),
    [
        (f"{MAIN}/A.java", "class A { Map<String, Double> balances; }", "balances as double"),
        (f"{MAIN}/A.java", "class A { float[] unitPrices; }", "unitPrices as float"),
        (f"{MAIN}/A.java", "class A { Double total_cost; }", "total_cost as double"),
        ("svc/src/main/kotlin/A.kt", "class A(val availableBalance: Double)", "availableBalance"),
        ("svc/src/main/kotlin/A.kt", "fun fees(): List<Float> = listOf()", "fees as float"),
        ("svc/src/main/kotlin/A.kt", "fun notional(): Double = 0.0", "notional as double"),
        (
            "svc/src/main/resources/db/migration/V1__o.sql",
            "CREATE TABLE o (id INT, limit_price DOUBLE PRECISION NOT NULL);",
            "limit_price as double precision",
        ),
        ("svc/src/main/resources/V2__o.sql", 'CREATE TABLE o ("qty" FLOAT8);', "qty as float8"),
        (
            "svc/src/main/resources/V3.sql",
            "ALTER TABLE o ALTER COLUMN fee TYPE REAL;",
            "fee as real",
        ),
    ],
)
def test_m1_finds_float_money_in_java_kotlin_and_sql(
    tmp_path: Path, rel: str, source: str, finding: str
) -> None:
    write(tmp_path, {rel: source})
    result = score(money, tmp_path, "M1")
    assert result.status is Status.FAIL
    assert finding in result.detail


def test_m1_a_float_money_phrase_in_an_sql_literal_or_comment_is_no_column(tmp_path: Path) -> None:
    sql = (
        "CREATE TABLE fill (\n"
        "  side TEXT NOT NULL, -- quantity DOUBLE PRECISION was a mistake\n"
        '  "quantity" NUMERIC(19, 4) NOT NULL,\n'
        "  note TEXT DEFAULT 'price FLOAT'\n);\n"
    )
    write(tmp_path, {"svc/src/main/resources/db/migration/V1__fill.sql": sql})
    assert score(money, tmp_path, "M1").status is Status.PASS


def test_m1_reads_name_parts_not_substrings(tmp_path: Path) -> None:
    write(tmp_path, java("    double priceless;\n    double ratio;\n    double costume;"))
    assert score(money, tmp_path, "M1").status is Status.PASS


def test_m1_a_renamed_field_escapes_only_where_no_money_name_is_left(tmp_path: Path) -> None:
    """``price`` -> ``px`` is not on the registry's list; the accessor still gives it away,
    and a fully renamed file passes M1 (the F scenarios, not a name lint, catch it)."""
    write(tmp_path, java("    private double px;\n    public double getPrice() { return px; }"))
    assert "declares getPrice as double" in score(money, tmp_path, "M1").detail
    write(tmp_path, java("    private double px;\n    public double getPx() { return px; }"))
    assert score(money, tmp_path, "M1").status is Status.PASS


def test_m1_scans_a_package_named_test_under_src_main(tmp_path: Path) -> None:
    write(tmp_path, {f"{MAIN}/test/Ledger.java": "class Ledger { double amount; }\n"})
    write(tmp_path, {"account-service/src/test/java/app/T.java": "class T { double cash; }\n"})
    result = score(money, tmp_path, "M1")
    assert result.detail == f"float money: {MAIN}/test/Ledger.java:1 declares amount as double"


def test_m1_ignores_build_outputs(tmp_path: Path) -> None:
    write(tmp_path, good())
    write(tmp_path, {"account-service/build/src/main/java/G.java": "class G { double price; }"})
    assert score(money, tmp_path, "M1").status is Status.PASS


# M2 ------------------------------------------------------------------------------------


def test_m2_a_comment_only_file_mentioning_bigdecimal_handles_no_money(tmp_path: Path) -> None:
    cheat = "// import java.math.BigDecimal;\n/* BigDecimal price; */\npublic class Note {}\n"
    write(tmp_path, {f"{MAIN}/Note.java": cheat})
    result = score(money, tmp_path, "M2")
    assert result.status is Status.FAIL
    assert result.detail == "no main source file handles a money-named field"


def test_m2_needs_half_of_the_money_files_to_import_bigdecimal(tmp_path: Path) -> None:
    imported = "import java.math.BigDecimal;"
    write(tmp_path, java("    BigDecimal amount;", "A", imported))
    write(tmp_path, java("    String amountText;", "B"))
    assert score(money, tmp_path, "M2").status is Status.PASS
    write(tmp_path, java("    long totalCents;", "C", "// import java.math.BigDecimal;"))
    result = score(money, tmp_path, "M2")
    assert result.status is Status.FAIL
    assert result.detail == (
        "1 of 3 money-handling file(s) import java.math.BigDecimal (needs half); "
        f"e.g. {MAIN}/B.java"
    )


def test_m2_a_money_word_inside_a_string_is_not_handling_money(tmp_path: Path) -> None:
    write(tmp_path, java('    String label = "price";', "Labels"))
    assert score(money, tmp_path, "M2").detail.startswith("no main source file handles")


def test_m2_a_package_or_import_named_for_money_is_not_handling_it(tmp_path: Path) -> None:
    write(
        tmp_path,
        {f"{MAIN}/fees/Clock.java": "package app.fees;\nimport app.fees.Fee;\nclass Clock {}"},
    )
    assert score(money, tmp_path, "M2").detail.startswith("no main source file handles")


def test_m2_counts_kotlin_imports(tmp_path: Path) -> None:
    write(
        tmp_path, {"svc/src/main/kotlin/A.kt": "import java.math.*\nclass A(val cash: BigDecimal)"}
    )
    assert score(money, tmp_path, "M2").status is Status.PASS


# M3 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("boolean same(BigDecimal o) { return price.equals(o); }", "price"),
        ("boolean same(Thing o) { return getTotal().equals(o.getTotal()); }", "getTotal"),
        ("boolean same(Thing o) { return java.util.Objects.equals(fee, o.fee); }", "fee"),
        ("boolean zero() { return BigDecimal.ZERO.equals(this.balance); }", "balance"),
    ],
)
def test_m3_fails_equals_on_a_money_value(tmp_path: Path, code: str, name: str) -> None:
    write(tmp_path, java(f"    {code}"))
    result = score(money, tmp_path, "M3")
    assert result.status is Status.FAIL
    assert result.detail == f"{MAIN}/Thing.java:4 compares {name} with .equals("


def test_m3_passes_comments_strings_and_compare_to(tmp_path: Path) -> None:
    body = (
        "    // price.equals(other) is the scale trap\n"
        '    boolean named(String key) { return "price".equals(key) || side.equals(Side.SELL); }\n'
        "    boolean same(BigDecimal o) { return price.compareTo(o) == 0; }"
    )
    write(tmp_path, java(body))
    result = score(money, tmp_path, "M3")
    assert result.status is Status.PASS
    assert result.detail == "no .equals( on a money value in 1 file(s)"


# M4 ------------------------------------------------------------------------------------


def test_m4_a_replay_that_adds_sells_fails(tmp_path: Path) -> None:
    write(tmp_path, good())
    buggy = HOLDINGS.replace("quantity = quantity.negate();", "quantity = quantity.add(ZERO);")
    write(tmp_path, {f"{MAIN}/HoldingsService.java": buggy})
    result = score(money, tmp_path, "M4")
    assert result.status is Status.FAIL
    assert result.detail == (
        f"point-in-time method {MAIN}/HoldingsService.java:16 holdingsAt "
        "never subtracts the sell side"
    )


def test_m4_a_subtraction_in_a_comment_does_not_count(tmp_path: Path) -> None:
    write(tmp_path, good())
    commented = HOLDINGS.replace(
        "quantity = quantity.negate();", "// quantity = quantity.subtract(x); -= * -1"
    )
    write(tmp_path, {f"{MAIN}/HoldingsService.java": commented})
    assert score(money, tmp_path, "M4").status is Status.FAIL


def test_m4_a_subtraction_elsewhere_in_the_file_does_not_count(tmp_path: Path) -> None:
    body = (
        "    BigDecimal fee(BigDecimal cash, BigDecimal cost) { return cash.subtract(cost); }\n"
        "    BigDecimal balanceAt(Instant t) { return replayed.add(ZERO); }"
    )
    write(tmp_path, java(body, "Wallet"))
    result = score(money, tmp_path, "M4")
    assert result.detail.endswith("Wallet.java:5 balanceAt never subtracts the sell side")


@pytest.mark.parametrize(
    ("line", "shape"),
    [
        ("held -= fill.quantity();", "-="),
        ("held = held.add(fill.quantity().multiply(BigDecimal.valueOf(-1)));", "* -1"),
        ("held = held.add(fill.side() == Side.SELL ? -fill.qty() : fill.qty());", "minus on"),
        ("held = held.subtract(fill.quantity());", ".subtract("),
    ],
)
def test_m4_accepts_each_subtraction_shape(tmp_path: Path, line: str, shape: str) -> None:
    body = f"    long positionsAt(Instant asOf) {{\n        {line}\n        return held;\n    }}"
    write(tmp_path, java(body, "Positions"))
    result = score(money, tmp_path, "M4")
    assert result.status is Status.PASS
    assert f"positionsAt: {shape}" in result.detail


def test_m4_a_delegating_method_is_judged_by_what_it_calls(tmp_path: Path) -> None:
    body = (
        "    BigDecimal holdingsAsOf(Instant t) { return replayLedger(t); }\n"
        "    BigDecimal replayLedger(Instant t) {\n"
        "        BigDecimal q = ZERO;\n"
        "        for (Fill f : fills) { q = f.side() == Side.BUY ? q.add(f.qty()) : "
        "q.subtract(f.qty()); }\n"
        "        return q;\n"
        "    }"
    )
    write(tmp_path, java(body, "Book"))
    result = score(money, tmp_path, "M4")
    assert result.status is Status.PASS
    assert "holdingsAsOf: calls replayLedger" in result.detail


def test_m4_reads_the_query_of_a_repository_method(tmp_path: Path) -> None:
    repo = (
        "package app;\n\npublic interface FillRepository {\n"
        "    @Query(\"SELECT f.symbol, SUM(CASE WHEN f.side = 'SELL' THEN -f.quantity "
        'ELSE f.quantity END) FROM Fill f WHERE f.executedAt < :asOf GROUP BY f.symbol")\n'
        '    List<Object[]> holdingsAt(@Param("asOf") Instant asOf);\n}\n'
    )
    write(tmp_path, {f"{MAIN}/FillRepository.java": repo})
    result = score(money, tmp_path, "M4")
    assert result.status is Status.PASS
    assert "signed CASE WHEN ... SELL" in result.detail


def test_m4_an_instant_parameter_counts_only_in_a_holdings_file(tmp_path: Path) -> None:
    body = (
        "    long sharesOn(Instant t) { return count(t); }\n    Ledger(Instant t) { this.t = t; }"
    )
    write(tmp_path, java(body, "Reports"))
    assert score(money, tmp_path, "M4").status is Status.NOT_ATTEMPTED
    write(tmp_path, java(body, "Ledger"))
    result = score(money, tmp_path, "M4")
    assert (
        result.detail
        == f"point-in-time method {MAIN}/Ledger.java:4 sharesOn never subtracts the sell side"
    )


def test_m4_a_kotlin_unit_function_in_a_ledger_file_is_no_query(tmp_path: Path) -> None:
    kotlin = (
        "class Ledger {\n"
        "    fun record(fill: Fill, at: Instant) { fills.add(fill) }\n"
        "    fun log(at: Instant): Unit = println(at)\n"
        "    fun sharesOn(at: Instant) = fills.count { it.at < at }\n"
        "}\n"
    )
    write(tmp_path, {"svc/src/main/kotlin/app/Ledger.kt": kotlin})
    result = score(money, tmp_path, "M4")
    assert result.detail == (
        "point-in-time method svc/src/main/kotlin/app/Ledger.kt:4 sharesOn "
        "never subtracts the sell side"
    )


def test_m4_reads_kotlin_expression_bodies(tmp_path: Path) -> None:
    kotlin = (
        "class Holdings(private val fills: List<Fill>) {\n"
        "    fun holdingsAt(asOf: Instant): BigDecimal =\n"
        "        fills.filter { it.executedAt < asOf }\n"
        "            .fold(ZERO) { q, f -> if (f.side == SELL) q.minus(f.qty) else q + f.qty }\n"
        "\n"
        "    fun snapshotAt(asOf: Instant): BigDecimal = holdingsAt(asOf).plus(ZERO)\n"
        "}\n"
    )
    write(tmp_path, {"svc/src/main/kotlin/app/Holdings.kt": kotlin})
    result = score(money, tmp_path, "M4")
    assert result.status is Status.PASS
    assert "holdingsAt: .minus(" in result.detail
    assert "snapshotAt: calls holdingsAt" in result.detail


# the comment stripper -----------------------------------------------------------------


def test_a_comment_marker_inside_a_string_is_kept() -> None:
    code = 'String url = "http://host"; // gone\nchar c = \'"\'; /* gone */ int x;'
    assert strip_comments(code, "java") == (
        'String url = "http://host";        \nchar c = \'"\';            int x;'
    )


def test_kotlin_block_comments_nest_and_java_ones_do_not() -> None:
    text = "/* a /* b */ c */ d"
    assert strip_comments(text, "kotlin").strip() == "d"
    assert strip_comments(text, "java").strip() == "c */ d"


def test_sql_doubled_quotes_stay_inside_the_literal() -> None:
    text = "SELECT 'it''s -- kept' -- dropped\nFROM t"
    assert strip_comments(text, "sql") == "SELECT 'it''s -- kept'           \nFROM t"


def test_blanking_strings_keeps_quotes_and_positions() -> None:
    text = 'a = "x { y";\nb'
    assert strip_comments(text, "java", blank_strings=True) == 'a = "     ";\nb'


def test_m4_leaves_out_accessors_setters_and_factories(tmp_path: Path) -> None:
    entry = (
        "    Instant getAsOf() { return asOf; }\n"
        "    void setAsOf(Instant asOf) { this.asOf = asOf; }\n"
        "    Instant asOfApplied() { return asOf; }\n"
        "    static LedgerEntry of(BigDecimal qty, Instant at) { return make(qty, at); }\n"
        "    void setExecutedAt(Instant at) { this.at = at; }\n"
        "    public void record(Fill fill, Instant at) { repo.save(fill); }\n"
        "    LedgerEntry(BigDecimal qty, Instant at) { this.qty = qty; }"
    )
    write(tmp_path, java(entry, "LedgerEntry"))
    assert score(money, tmp_path, "M4").status is Status.NOT_ATTEMPTED


def test_m4_a_controller_delegating_to_a_holdings_query_passes(tmp_path: Path) -> None:
    write(tmp_path, good())
    controller = (
        '    @GetMapping("/accounts/{id}/holdings")\n'
        "    Map<String, BigDecimal> holdings(@PathVariable UUID id, @RequestParam Instant t) {\n"
        "        return service.holdingsAt(t);\n"
        "    }"
    )
    write(tmp_path, java(controller, "HoldingsController"))
    result = score(money, tmp_path, "M4")
    assert result.status is Status.PASS
    assert "HoldingsController.java:5 holdings: calls holdingsAt" in result.detail
