"""B3's seeded mutation: which site is chosen, the mutant's text, and when there is none."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchwright.checks.ace._mutation import REACH, apply, choose, mutable_sources

from ._build_builders import LEDGER_JAVA, write

MAIN = "svc/src/main/java/com/acme/Trades.java"


def _one(tmp_path: Path, text: str, rel: str = MAIN) -> tuple[str, str, str] | None:
    write(tmp_path, {rel: text})
    found = choose(tmp_path, [rel])
    return None if found is None else (found.kind, found.before.strip(), found.after.strip())


def test_subtract_becomes_add_next_to_a_sell_token(tmp_path: Path) -> None:
    write(tmp_path, {MAIN: LEDGER_JAVA})
    found = choose(tmp_path, [MAIN])
    assert found is not None
    assert (found.kind, found.line, found.anchor) == (".subtract( -> .add(", 10, "SELL")
    assert found.after.strip() == "return cash.add(notional);"
    apply(found, tmp_path)
    mutated = (tmp_path / MAIN).read_text()
    assert "cash.add(notional);\n    }\n}" in mutated and ".subtract(" not in mutated


@pytest.mark.parametrize(
    ("body", "kind", "after"),
    [
        ("return qty.negate();", ".negate() -> identity", "return qty;"),
        ("held = held.minus(qty)", ".minus( -> .plus(", "held = held.plus(qty)"),
        ("long delta = -order.getQuantity();", "unary minus dropped on a quantity",
         "long delta = order.getQuantity();"),
        ("cashBalance -= price;", "-= -> += on a money line", "cashBalance += price;"),
    ],
)  # fmt: skip
def test_each_mutation_and_its_mutant_text(
    tmp_path: Path, body: str, kind: str, after: str
) -> None:
    text = (
        "class T {\n  void f(Side side) {\n    if (side == Side.SELL) {\n"
        f"      {body}\n    }}\n  }}\n}}\n"
    )
    assert _one(tmp_path, text) == (kind, body, after)


def test_binary_minus_and_a_non_money_decrement_are_not_candidates(tmp_path: Path) -> None:
    text = (
        "class T {\n  int f() {\n    Side s = Side.SELL;\n"
        "    int n = a - qty;\n    retries -= 1;\n    return n;\n  }\n}\n"
    )
    assert _one(tmp_path, text) is None
    assert _one(tmp_path, text.replace("retries -= 1", "fees -= 1")) == (
        "-= -> += on a money line",
        "fees -= 1;",
        "fees += 1;",
    )


def test_the_nearest_candidate_to_an_anchor_wins(tmp_path: Path) -> None:
    far = "    x = x.subtract(y);\n" + "    // padding\n" * 20
    near = "    if (side == BUY) { cash = cash.subtract(cost); }\n"
    text = f"class T {{\n  void f() {{\n{far}{near}  }}\n}}\n"
    write(tmp_path, {MAIN: text})
    found = choose(tmp_path, [MAIN])
    assert found is not None and found.before.strip().startswith("if (side == BUY)")


def test_a_point_in_time_method_is_an_anchor(tmp_path: Path) -> None:
    kotlin = (
        "package x\n\nclass Book {\n"
        "    fun holdingsAt(at: Instant): Long {\n"
        "        var total = 0L\n"
        "        for (o in orders) total -= o.quantity\n"
        "        return total\n    }\n}\n"
    )
    rel = "svc/src/main/kotlin/x/Book.kt"
    write(tmp_path, {rel: kotlin})
    found = choose(tmp_path, [rel])
    assert found is not None
    assert found.kind == "-= -> += on a money line"
    assert found.anchor == "point-in-time method holdingsAt(at: Instant)"


def test_an_instant_parameter_anchors_only_in_a_holdings_file(tmp_path: Path) -> None:
    java = "class P {\n  BigDecimal valueOn(Instant at) {\n    return cost.subtract(fee);\n  }\n}\n"
    write(
        tmp_path, {"s/src/main/java/PositionBook.java": java, "s/src/main/java/Report.java": java}
    )
    assert choose(tmp_path, ["s/src/main/java/Report.java"]) is None
    found = choose(tmp_path, ["s/src/main/java/PositionBook.java"])
    assert found is not None and found.anchor.startswith("point-in-time method valueOn(")


def test_comment_only_candidates_are_ignored(tmp_path: Path) -> None:
    text = (
        "class T {\n  void f() {\n    if (side == Side.SELL) {\n"
        "      // cash = cash.subtract(price);\n      /* qty.negate() */\n    }\n  }\n}\n"
    )
    assert _one(tmp_path, text) is None


def test_nothing_to_mutate_without_an_anchor_or_beyond_reach(tmp_path: Path) -> None:
    assert _one(tmp_path, "class T { BigDecimal f() { return a.subtract(b); } }\n") is None
    padding = " " * (REACH + 10)
    text = f'class T {{ String s = "SELL";{padding}BigDecimal f() {{ return a.subtract(b); }} }}\n'
    assert _one(tmp_path, text) is None


def test_only_java_and_kotlin_under_src_main() -> None:
    files = [
        "a/src/main/java/A.java",
        "a/src/test/java/ATest.java",
        "a/src/main/kotlin/B.kt",
        "a/src/main/resources/db.sql",
        "a/main/C.java",
        "src/main/D.java",
    ]
    assert mutable_sources(files) == [
        "a/src/main/java/A.java",
        "a/src/main/kotlin/B.kt",
        "src/main/D.java",
    ]
