package com.example.account;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.UUID;

@Entity
public class Account {
    @Id
    private UUID accountId = UUID.randomUUID();

    @Column(length = 3, nullable = false)
    private String currency = "USD";

    @Column(precision = 19, scale = 4, nullable = false)
    private BigDecimal availableBalance = BigDecimal.ZERO;

    public BigDecimal deposit(BigDecimal amount) {
        BigDecimal rounded = amount.setScale(2, RoundingMode.HALF_EVEN);
        if (rounded.signum() < 0) {
            throw new IllegalArgumentException("a deposit is never negative");
        }
        availableBalance = availableBalance.add(rounded);
        return availableBalance;
    }

    public boolean canAfford(BigDecimal cost) {
        return availableBalance.compareTo(cost) >= 0;
    }

    public BigDecimal getAvailableBalance() {
        return availableBalance;
    }
}
