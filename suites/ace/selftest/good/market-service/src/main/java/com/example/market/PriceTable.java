package com.example.market;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

public final class PriceTable {
    private static final Map<String, BigDecimal> PRICE = Map.of(
            "AAPL", new BigDecimal("10.00"),
            "TSLA", new BigDecimal("250.00"),
            "EURUSD", new BigDecimal("1.0850"));

    public Optional<BigDecimal> price(String symbol) {
        return Optional.ofNullable(PRICE.get(symbol));
    }
}
