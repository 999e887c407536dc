package com.example.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class HoldingsServiceTest {
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00.000Z");

    @Test
    void aSellAfterABuyLeavesNothing() {
        var buy = new Order("AAPL", Order.Side.BUY, new BigDecimal("5"), new BigDecimal("10.00"), t0);
        var sell = new Order("AAPL", Order.Side.SELL, new BigDecimal("5"), new BigDecimal("10.00"),
                t0.plusSeconds(2));
        var service = new HoldingsService(List.of(buy, sell));
        assertEquals(0, new BigDecimal("5").compareTo(service.holdingsAt(t0.plusSeconds(1)).get("AAPL")));
        assertTrue(service.holdingsAt(t0.plusSeconds(3)).isEmpty());
    }
}
