package com.cheat.test;

import java.time.Instant;
import java.util.List;

public class Ledger {
    record Fill(String side, double quantity, double price, Instant executedAt) {}

    private final List<Fill> fills;

    Ledger(List<Fill> fills) {
        this.fills = fills;
    }

    double holdingsAt(Instant asOf) {
        double held = 0;
        for (Fill fill : fills) {
            if (fill.executedAt().isBefore(asOf)) {
                held += fill.quantity();
            }
        }
        return held;
    }

    boolean samePrice(Double price, Double other) {
        return price.equals(other);
    }
}
