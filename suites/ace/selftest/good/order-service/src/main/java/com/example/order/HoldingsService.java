package com.example.order;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class HoldingsService {
    private final List<Order> orders;

    public HoldingsService(List<Order> orders) {
        this.orders = orders;
    }

    /** Positions from every order executed strictly before asOf (the boundary is exclusive). */
    public Map<String, BigDecimal> holdingsAt(Instant asOf) {
        Map<String, BigDecimal> quantity = new TreeMap<>();
        for (Order order : orders) {
            if (!order.executedAt().isBefore(asOf)) {
                continue;
            }
            BigDecimal held = quantity.getOrDefault(order.symbol(), BigDecimal.ZERO);
            if (order.side() == Order.Side.SELL) {
                quantity.put(order.symbol(), held.subtract(order.quantity()));
            } else {
                quantity.put(order.symbol(), held.add(order.quantity()));
            }
        }
        quantity.values().removeIf(q -> q.signum() == 0);
        return quantity;
    }
}
