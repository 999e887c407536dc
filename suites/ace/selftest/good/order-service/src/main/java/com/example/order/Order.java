package com.example.order;

import java.math.BigDecimal;
import java.time.Instant;

public record Order(String symbol, Side side, BigDecimal quantity, BigDecimal price,
                    Instant executedAt) {
    public enum Side { BUY, SELL }

    public BigDecimal cost() {
        return price.multiply(quantity);
    }
}
