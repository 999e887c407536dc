package com.example.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class AccountTest {
    @Test
    void depositsRoundHalfEven() {
        var account = new Account();
        account.deposit(new BigDecimal("0.015"));
        assertEquals(0, new BigDecimal("0.02").compareTo(account.getAvailableBalance()));
    }

    @Test
    void aNegativeDepositIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Account().deposit(new BigDecimal("-1")));
    }
}
